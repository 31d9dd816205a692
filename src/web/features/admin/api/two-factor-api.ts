import type { TwoFactorSetup, TwoFactorStatus } from '../../../../shared/two-factor'
import { callRpc } from '../../../lib/rpc-client'

type Refusal = { success: false; error: string }

export const twoFactorApi = {
  status: () => callRpc<TwoFactorStatus>('secure_admin_2fa_status', {}, { idempotent: true }),
  begin: () => callRpc<TwoFactorSetup | Refusal>('secure_admin_2fa_begin', {}),
  enable: (password: string, code: string) =>
    callRpc<{ success: true; recovery_codes: string[] } | Refusal>('secure_admin_2fa_enable', {
      p_password: password,
      p_code: code,
    }),
  disable: (password: string, code: string) =>
    callRpc<{ success: true } | Refusal>('secure_admin_2fa_disable', { p_password: password, p_code: code }),
}

export const twoFactorKeys = { status: ['admin', 'two-factor'] as const }
