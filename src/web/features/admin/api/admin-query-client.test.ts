import { describe, expect, it } from 'vitest'
import { adminMessages } from '../../../../shared/admin'
import { RpcError } from '../../../lib/rpc-client'
import { adminErrorToast, Refused } from './admin-query-client'

// What the admin's one error toast says for each kind of failure: null = nothing (already told).
describe('the admin error-toast policy', () => {
  it('stays silent when the connection toast or the session handling has said it', () => {
    expect(adminErrorToast(new RpcError('Connection error', 0, true))).toBeNull()
    expect(adminErrorToast(new RpcError('Unauthorized', 401))).toBeNull()
    expect(adminErrorToast(new RpcError(adminMessages.accessDenied, 403))).toBeNull()
  })

  it('tells the server’s own words: a refusal or a 4xx message', () => {
    expect(adminErrorToast(new Refused('This address is leased'))).toBe('This address is leased')
    expect(adminErrorToast(new RpcError('p_status: invalid', 400))).toBe('p_status: invalid')
    expect(adminErrorToast(new RpcError('Too many attempts', 429))).toBe('Too many attempts')
  })

  it('falls back to the mutation’s own failure text otherwise', () => {
    expect(adminErrorToast(new RpcError('Server error (500)', 500))).toBe('')
    expect(adminErrorToast(new Refused(''))).toBe('')
    expect(adminErrorToast(new Error('boom'))).toBe('')
  })
})
