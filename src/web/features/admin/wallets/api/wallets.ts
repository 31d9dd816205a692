import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { FetchWalletAddressesAnswer } from '../../../../../shared/admin'
import { useT } from '../../../../i18n/i18n'
import { toast } from '../../../../lib/toast'
import { type Outcome, read, write } from '../../api/admin-api'
import { accepted } from '../../api/admin-query-client'

// The Wallets tab's calls: the pool, adding addresses, removing one or several. Each write says
// when it worked and refreshes the pool; a failure is told by the admin client's error toast.

export const walletKeys = { all: ['admin', 'wallets'] as const }

export function useWallets() {
  return useQuery({
    queryKey: walletKeys.all,
    queryFn: () => read<FetchWalletAddressesAnswer>('secure_fetch_wallet_addresses'),
    refetchInterval: 30_000,
  })
}

export function useAddWallets() {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (addresses: string[]) =>
      accepted(
        await write<Outcome & { added_count: number }>('secure_add_wallet_addresses', {
          p_addresses: addresses,
        }),
      ),
    meta: { failure: 'admin.wallets.addFailed' },
    onSuccess: async (answer) => {
      toast.success(t('admin.wallets.added', { count: answer.added_count }), { duration: 2000 })
      await queryClient.invalidateQueries({ queryKey: walletKeys.all })
    },
  })
}

export function useRemoveWallet() {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (address: string) =>
      accepted(await write('secure_remove_wallet_address', { p_address: address })),
    meta: { failure: 'admin.wallets.removeFailed' },
    onSuccess: () => toast.success(t('admin.wallets.removed'), { duration: 2000 }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: walletKeys.all }),
  })
}

export function useRemoveWallets() {
  const t = useT()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (addresses: string[]) =>
      accepted(
        await write<{ success: boolean; removed_count: number; in_use: string[] }>(
          'secure_remove_wallet_addresses',
          { p_addresses: addresses },
        ),
      ),
    meta: { failure: 'admin.wallets.removeManyFailed' },
    onSuccess: (answer) =>
      toast.success(t('admin.wallets.removedMany', { count: answer.removed_count }), { duration: 2000 }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: walletKeys.all }),
  })
}
