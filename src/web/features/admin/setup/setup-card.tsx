import { AlertOctagon, AlertTriangle, CheckCircle2, Mail, RefreshCw } from 'lucide-react'
import type { ChainId } from '../../../../shared/chains'
import { chainNames } from '../../../../shared/networks'
import type { SetupCheck, SetupCheckState } from '../../../../shared/setup-check'
import { Button } from '../../../components/ui/button'
import { type MessageId, useFormat, useT } from '../../../i18n/i18n'
import { Panel } from '../components/fields'
import { useSendTestMail, useSetupReport } from './api/setup'

// The admin's Setup card (decision 057): what the shop still lacks before real money, each finding
// with its fix, the worst first. npm run doctor prints the same report on the command line.

const ORDER: Record<SetupCheckState, number> = { fail: 0, warn: 1, ok: 2 }

const STYLE: Record<SetupCheckState, { box: string; tone: string; Icon: typeof CheckCircle2 }> = {
  fail: { box: 'border-red-500/40 bg-red-500/10', tone: 'text-red-300', Icon: AlertOctagon },
  warn: { box: 'border-amber-500/40 bg-amber-500/10', tone: 'text-amber-200', Icon: AlertTriangle },
  ok: { box: 'border-line', tone: 'text-emerald-300', Icon: CheckCircle2 },
}

function CheckRow({ check }: { check: SetupCheck }) {
  const t = useT()
  const { Icon, box, tone } = STYLE[check.state]
  const values = {
    ...check.facts,
    chain: check.chain ? (chainNames[check.chain as ChainId] ?? check.chain) : '',
  }
  const finding = `admin.setup.${check.id}.${check.reason}` as MessageId
  return (
    <li
      data-testid={`setup-${check.id}${check.chain ? `-${check.chain}` : ''}`}
      className={`rounded-xl border p-3 ${box}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <h3 className="font-medium text-fg">{t(`admin.setup.check.${check.id}`, values)}</h3>
        <span className={`inline-flex items-center gap-1.5 text-xs font-semibold ${tone}`}>
          <Icon className="size-4 shrink-0" aria-hidden />
          {t(`admin.setup.state.${check.state}`)}
        </span>
      </div>
      <p className="mt-1 break-words text-sm text-muted">{t(finding, values)}</p>
      {check.state !== 'ok' && (
        <p className="mt-1 break-words text-sm text-fg">
          <span className="font-semibold">{t('admin.setup.fixLabel')}</span>{' '}
          {t(`${finding}.fix` as MessageId, values)}
        </p>
      )}
    </li>
  )
}

export function SetupCard() {
  const t = useT()
  const { dateTime } = useFormat()
  const report = useSetupReport()
  const testMail = useSendTestMail()
  const checks = [...(report.data?.checks ?? [])].sort((a, b) => ORDER[a.state] - ORDER[b.state])
  const fails = checks.filter((c) => c.state === 'fail').length
  const warns = checks.filter((c) => c.state === 'warn').length
  const mailResult = testMail.data

  const actions = (
    <div className="flex flex-wrap gap-2">
      <Button variant="secondary" onClick={() => testMail.mutate()} disabled={testMail.isPending}>
        <Mail className="size-4" aria-hidden />
        {t('admin.setup.sendTestMail')}
      </Button>
      <Button variant="secondary" onClick={() => void report.refetch()} disabled={report.isFetching}>
        <RefreshCw className={`size-4 ${report.isFetching ? 'animate-spin' : ''}`} aria-hidden />
        {report.isFetching ? t('admin.setup.checking') : t('admin.setup.recheck')}
      </Button>
    </div>
  )

  return (
    <section aria-label={t('admin.setup.title')}>
      <Panel title={t('admin.setup.title')} actions={actions}>
        <p className="text-sm text-muted">{t('admin.setup.intro')}</p>
        {mailResult && (
          <output
            className={`mt-3 block text-sm ${mailResult.success ? 'text-emerald-300' : 'text-red-300'}`}
          >
            {mailResult.success
              ? t('admin.setup.testMailSent', { to: mailResult.to ?? '' })
              : t('admin.setup.testMailFailed', { error: mailResult.error ?? '' })}
          </output>
        )}
        {!report.data ? (
          <p data-testid="setup-loading" className="py-8 text-center text-muted">
            {report.isError ? t('admin.setup.loadFailed') : t('admin.setup.checking')}
          </p>
        ) : (
          <>
            <p
              data-testid="setup-summary"
              className={`mt-3 flex items-start gap-2 text-sm font-medium ${fails > 0 ? 'text-red-300' : warns > 0 ? 'text-amber-200' : 'text-emerald-300'}`}
            >
              {fails > 0
                ? t('admin.setup.failing', { count: fails })
                : warns > 0
                  ? t('admin.setup.warnings', { count: warns })
                  : t('admin.setup.allGood')}
            </p>
            <ul className="mt-4 grid gap-3 lg:grid-cols-2">
              {checks.map((check) => (
                <CheckRow key={`${check.id}-${check.chain ?? ''}`} check={check} />
              ))}
            </ul>
            <p className="mt-3 text-xs text-muted">
              {t('admin.setup.checkedAt', { time: dateTime(report.data.checkedAt) })}
            </p>
          </>
        )}
      </Panel>
    </section>
  )
}
