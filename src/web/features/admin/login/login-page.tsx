import { Loader2, Lock, ShieldAlert } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useNavigate } from 'react-router'
import { adminMessages, loginInputSchema } from '../../../../shared/admin'
import { Logo } from '../../../components/layout/logo'
import { Button } from '../../../components/ui/button'
import { useT } from '../../../i18n/i18n'
import { LanguageSwitcher } from '../../../i18n/language-switcher'
import { useSiteContent } from '../../../lib/api/get-site-content'
import { useSchemaForm } from '../../../lib/form'
import { RpcError } from '../../../lib/rpc-client'
import { toast } from '../../../lib/toast'
import { Field, TextInput } from '../components/fields'
import { adminAuthFlag } from '../session/admin-auth-flag'
import { useAdminSession } from '../session/api/session'
import { type LoginAnswer, useLogin } from './api/login'

const isAccessDenied = (err: unknown) =>
  err instanceof RpcError && err.status === 403 && err.message === adminMessages.accessDenied

export function AdminLoginPage() {
  const t = useT()
  const labels = {
    p_username: t('admin.login.username'),
    p_password: t('admin.login.password'),
    p_code: t('admin.login.code'),
  }
  const navigate = useNavigate()
  const { content } = useSiteContent()
  // The server answers whether this browser may use the panel, and whether it is logged in already.
  const session = useAdminSession()
  // A login refused because of this browser (the session check may have passed before).
  const [refused, setRefused] = useState(false)
  const restricted = refused || isAccessDenied(session.error)
  // Set once the password matched for an account with two-factor login on.
  const [needsCode, setNeedsCode] = useState(false)

  useEffect(() => {
    if (session.isSuccess) {
      adminAuthFlag.set()
      navigate('/admin', { replace: true })
    } else if (session.isError) adminAuthFlag.clear()
  }, [session.isSuccess, session.isError, navigate])
  useEffect(() => {
    if (restricted) toast.error(t('admin.accessDenied'), { id: 'access-denied' })
  }, [restricted, t])

  const login = useLogin()
  const onAnswer = (answer: LoginAnswer) => {
    if (answer.success) {
      adminAuthFlag.set()
      navigate('/admin', { replace: true })
      return
    }
    if (answer.two_factor_required) {
      if (needsCode) toast.error(answer.error, { id: 'login-error' })
      setNeedsCode(true)
      form.reset({ ...form.values, p_code: '' })
      return
    }
    setNeedsCode(false)
    toast.error(t('admin.invalidCredentials'), { id: 'login-error' })
  }
  // A refused browser becomes the "Access Restricted" page (the admin client tells the rest).
  const onError = (err: unknown) => {
    if (isAccessDenied(err)) setRefused(true)
  }
  const busy = login.isPending
  const form = useSchemaForm({
    schema: loginInputSchema,
    initial: { p_username: '', p_password: '', p_code: '' },
    // The code is asked for (and required) only once the password matched.
    toInput: (v) => ({ ...v, p_code: needsCode ? v.p_code : undefined }),
    labels,
    onValid: (v) => {
      if (!busy)
        login.mutate(
          { username: v.p_username, password: v.p_password, code: v.p_code },
          { onSuccess: onAnswer, onError },
        )
    },
  })
  const gate = restricted ? 'restricted' : session.isError ? 'form' : 'checking'

  return (
    <main className="grid min-h-dvh place-items-center px-4 py-10">
      <div className="w-full max-w-md">
        <div className="mb-4 flex justify-end">
          <LanguageSwitcher admin />
        </div>
        <div className="mb-8 flex justify-center">
          <Logo mainText={content.logo.mainText} subText={t('admin.panel')} />
        </div>
        {gate === 'restricted' && (
          <div className="rounded-2xl border border-red-500/30 bg-card p-8 text-center">
            <ShieldAlert className="mx-auto size-10 text-red-400" aria-hidden />
            <h1 className="mt-4 text-lg font-semibold text-fg">{t('admin.accessRestricted')}</h1>
          </div>
        )}
        {/* While the server is asked, the form already holds its place, hidden and inert, under the
            status: the page does not move when it shows (a short "Loading…" in its stead made the
            centred column jump up by the form's height). */}
        {gate !== 'restricted' && (
          <div className="relative">
            {gate === 'checking' && (
              <p role="status" className="absolute inset-0 grid place-items-center text-center text-muted">
                {t('admin.loading')}
              </p>
            )}
            <form
              {...form.formProps}
              inert={gate === 'checking'}
              className={`rounded-2xl border border-line bg-card p-6 shadow-xl sm:p-8 ${gate === 'checking' ? 'invisible' : ''}`}
            >
              <div className="mb-6 flex items-center gap-3">
                <span className="grid size-10 place-items-center rounded-xl bg-primary/15 text-primary">
                  <Lock className="size-5" aria-hidden />
                </span>
                <h1 className="text-xl font-semibold text-fg">{t('admin.login.title')}</h1>
              </div>
              <div className="flex flex-col gap-4">
                <Field label={labels.p_username} error={form.errors.p_username}>
                  <TextInput
                    name="username"
                    autoComplete="username"
                    required
                    value={form.values.p_username}
                    onChange={(e) => {
                      form.set('p_username', e.target.value)
                      setNeedsCode(false)
                    }}
                  />
                </Field>
                <Field label={labels.p_password} error={form.errors.p_password}>
                  <TextInput
                    name="password"
                    type="password"
                    autoComplete="current-password"
                    required
                    {...form.field('p_password')}
                  />
                </Field>
                {needsCode && (
                  <Field label={labels.p_code} hint={t('admin.login.codeHint')} error={form.errors.p_code}>
                    <TextInput
                      name="code"
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      autoFocus
                      required
                      {...form.field('p_code')}
                    />
                  </Field>
                )}
                <Button type="submit" disabled={busy} className="mt-2 w-full">
                  {busy && <Loader2 className="size-4 animate-spin" aria-hidden />}
                  {busy ? t('admin.login.busy') : t('admin.login.submit')}
                </Button>
              </div>
            </form>
          </div>
        )}
      </div>
    </main>
  )
}
