import { useQuery } from '@tanstack/react-query'
import { callRpc } from '../../../../lib/rpc-client'
import { adminKeys, write } from '../../api/admin-api'

// The operator's session: whether this browser is logged in (and may use the panel at all), and
// logging out. Logging in is the login page's (login/api), changing the credentials the Security tab's.

const fetchSession = () =>
  callRpc<{ success: true; username: string }>('secure_admin_session', {}, { quiet: true })

/** The layout reads it once (a 401 later ends it); the login page asks it on every visit. */
export function useAdminSession({ once = false }: { once?: boolean } = {}) {
  return useQuery({
    queryKey: adminKeys.session,
    queryFn: fetchSession,
    ...(once ? { staleTime: Number.POSITIVE_INFINITY } : {}),
  })
}

/** Logging out ends the session on the server; the panel forgets everything it read either way. */
export async function logout() {
  try {
    await write('secure_admin_logout')
  } catch {}
}
