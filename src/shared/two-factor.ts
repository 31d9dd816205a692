import * as z from 'zod'
import { adminKeyField } from './rpc'

// Contracts of two-factor login (TOTP) on the admin's Security tab and login page.

export const twoFactorMessages = {
  codeRequired: 'Enter the 6-digit code from your authenticator app',
  invalidCode: 'Invalid authentication code',
  enabled: 'Two-factor login is on',
  disabled: 'Two-factor login is off',
  noSetup: 'Start the setup first',
  alreadyEnabled: 'Two-factor login is already on',
} as const

const code = z.string().trim().min(1, 'is required').max(40)
const password = z.string().min(1, 'is required').max(200)

/** Switching on changes who can log in, so it asks for the current password as switching off does. */
export const confirmTwoFactorInputSchema = z
  .object({ ...adminKeyField, p_password: password, p_code: code })
  .strict()

export const disableTwoFactorInputSchema = z
  .object({ ...adminKeyField, p_password: password, p_code: code })
  .strict()

export interface TwoFactorStatus {
  success: true
  enabled: boolean
  recovery_codes_left: number
}

export interface TwoFactorSetup {
  success: true
  secret: string
  otpauth_uri: string
}
