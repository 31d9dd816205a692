import { useMutation } from '@tanstack/react-query'
import { Loader2, Lock, ShieldAlert } from 'lucide-react'
import { type FormEvent, useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { adminMessages } from '../../../shared/admin'
import { Logo } from '../../components/layout/logo'
import { Button } from '../../components/ui/button'
import { useSiteContent } from '../../lib/api/get-site-content'
import { RpcError } from '../../lib/rpc-client'
import { toast } from '../../lib/toast'
import { adminAuthFlag } from './admin-auth-flag'
import { adminApi } from './api/admin-api'
import { Field, TextInput } from './components/fields'

type Gate = 'checking' | 'form' | 'restricted'

export function AdminLoginPage() {
  const navigate = useNavigate()
  const { content } = useSiteContent()
  const [gate, setGate] = useState<Gate>('checking')
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  // Set once the password matched for an account with two-factor login on.
  const [needsCode, setNeedsCode] = useState(false)
  const [code, setCode] = useState('')
  const login = useMutation({
    mutationFn: (input: { username: string; password: string; code?: string }) =>
      adminApi.login(input.username, input.password, input.code),
    onSuccess: (answer) => {
      if (answer.success) {
        adminAuthFlag.set()
        navigate('/admin', { replace: true })
        return
      }
      if (answer.two_factor_required) {
        if (needsCode) toast.error(answer.error, { id: 'login-error' })
        setNeedsCode(true)
        setCode('')
        return
      }
      setNeedsCode(false)
      toast.error(adminMessages.invalidCredentials, { id: 'login-error' })
    },
    onError: (err) => {
      if (err instanceof RpcError && err.status === 403 && err.message === adminMessages.accessDenied)
        restrict()
      else if (err instanceof RpcError && err.status === 429) toast.error(err.message, { id: 'login-error' })
      else if (!(err instanceof RpcError && err.network))
        toast.error(adminMessages.loginFailed, { id: 'login-error' })
    },
  })
  const busy = login.isPending

  const restrict = () => {
    setGate('restricted')
    toast.error(adminMessages.accessDenied, { id: 'access-denied' })
  }

  // The server answers whether this browser may use the panel, and whether it is logged in already.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once on arrival
  useEffect(() => {
    let cancelled = false
    adminApi
      .session()
      .then(() => {
        if (cancelled) return
        adminAuthFlag.set()
        navigate('/admin', { replace: true })
      })
      .catch((err: unknown) => {
        if (cancelled) return
        adminAuthFlag.clear()
        if (err instanceof RpcError && err.status === 403 && err.message === adminMessages.accessDenied)
          restrict()
        else setGate('form')
      })
    return () => {
      cancelled = true
    }
  }, [])

  function submit(event: FormEvent) {
    event.preventDefault()
    if (busy || !username.trim() || !password) return
    login.mutate({ username: username.trim(), password, code: needsCode ? code.trim() : undefined })
  }

  return (
    <main className="grid min-h-dvh place-items-center px-4 py-10">
      <div className="w-full max-w-md">
        <div className="mb-8 flex justify-center">
          <Logo mainText={content.logo.mainText} subText="ADMIN PANEL" />
        </div>
        {gate === 'checking' && (
          <p role="status" className="text-center text-muted">
            Loading...
          </p>
        )}
        {gate === 'restricted' && (
          <div className="rounded-2xl border border-red-500/30 bg-card p-8 text-center">
            <ShieldAlert className="mx-auto size-10 text-red-400" aria-hidden />
            <h1 className="mt-4 text-lg font-semibold text-fg">{adminMessages.accessRestricted}</h1>
          </div>
        )}
        {gate === 'form' && (
          <form onSubmit={submit} className="rounded-2xl border border-line bg-card p-6 shadow-xl sm:p-8">
            <div className="mb-6 flex items-center gap-3">
              <span className="grid size-10 place-items-center rounded-xl bg-primary/15 text-primary">
                <Lock className="size-5" aria-hidden />
              </span>
              <h1 className="text-xl font-semibold text-fg">Admin Login</h1>
            </div>
            <div className="flex flex-col gap-4">
              <Field label="Username">
                <TextInput
                  name="username"
                  autoComplete="username"
                  required
                  value={username}
                  onChange={(e) => {
                    setUsername(e.target.value)
                    setNeedsCode(false)
                  }}
                />
              </Field>
              <Field label="Password">
                <TextInput
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  required
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
              </Field>
              {needsCode && (
                <Field label="Authentication Code" hint="From your authenticator app, or a recovery code">
                  <TextInput
                    name="code"
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    autoFocus
                    required
                    value={code}
                    onChange={(e) => setCode(e.target.value)}
                  />
                </Field>
              )}
              <Button type="submit" disabled={busy} className="mt-2 w-full">
                {busy && <Loader2 className="size-4 animate-spin" aria-hidden />}
                {busy ? 'Logging in...' : 'Login'}
              </Button>
            </div>
          </form>
        )}
      </div>
    </main>
  )
}
