import { useMutation, useQuery } from '@tanstack/react-query'
import type { SetupReport, SetupTestMailResult } from '../../../../../shared/setup-check'
import { read, write } from '../../api/admin-api'

// The Setup card's calls: the self-check's report (asks the chains and checks passwords, so it is
// kept five minutes unless the operator asks again) and a test mail to the operator.

export const setupKeys = {
  report: ['admin', 'setup'] as const,
}

export function useSetupReport() {
  return useQuery({
    queryKey: setupKeys.report,
    queryFn: () => read<SetupReport>('secure_fetch_setup_report'),
    staleTime: 5 * 60_000,
  })
}

export function useSendTestMail() {
  return useMutation({
    mutationFn: () => write<SetupTestMailResult>('secure_send_setup_test_mail'),
  })
}
