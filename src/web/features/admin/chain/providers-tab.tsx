import { firstChain } from '../../../../shared/chains'
import { chainNames } from '../../../../shared/networks'
import type { ProviderAnswer } from '../../../../shared/providers'
import { Button } from '../../../components/ui/button'
import { type MessageId, type Translate, useFormat, useT } from '../../../i18n/i18n'
import { Panel } from '../components/fields'
import { useProviders, useTestProvider } from './api/providers'
import { ChainsOverview } from './chains-overview'

const stateLabels: Record<ProviderAnswer['state'], { text: MessageId; className: string }> = {
  healthy: { text: 'admin.chain.state.healthy', className: 'bg-emerald-500/15 text-emerald-300' },
  cooling: { text: 'admin.chain.state.cooling', className: 'bg-amber-500/15 text-amber-300' },
  suspended: { text: 'admin.chain.state.suspended', className: 'bg-amber-500/15 text-amber-300' },
  exhausted: { text: 'admin.chain.state.exhausted', className: 'bg-red-500/15 text-red-300' },
  set_aside: { text: 'admin.chain.state.set_aside', className: 'bg-red-500/15 text-red-300' },
  chain_stopped: { text: 'admin.chain.state.chain_stopped', className: 'bg-red-500/15 text-red-300' },
}

function minutesText(t: Translate, seconds: number): string {
  return seconds < 120
    ? t('admin.seconds', { seconds })
    : t('admin.minutes', { minutes: Math.round(seconds / 60) })
}

function ProviderRow({ provider }: { provider: ProviderAnswer }) {
  const t = useT()
  const { number, time } = useFormat()
  const test = useTestProvider()
  const state = stateLabels[provider.state]
  const result = test.variables === provider.name ? test.data : undefined
  const usedShare = provider.per_day ? provider.requests_today / provider.per_day : null
  return (
    <li className="flex flex-col gap-3 py-4" aria-label={provider.name}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold text-fg">{provider.name}</h3>
          <p className="font-mono text-xs break-all text-muted">
            {provider.host} · {t('admin.chain.keys', { count: provider.keys })}
          </p>
        </div>
        <span className={`rounded-full px-2.5 py-1 text-xs font-semibold ${state.className}`}>
          {t(state.text)}
        </span>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-muted">{t('admin.chain.requestsToday')}</dt>
          <dd className={usedShare !== null && usedShare >= 0.8 ? 'text-amber-300' : 'text-fg'}>
            {provider.per_day === null
              ? number(provider.requests_today)
              : t('admin.chain.requestsOf', {
                  used: number(provider.requests_today),
                  limit: number(provider.per_day),
                })}
          </dd>
        </div>
        <div>
          <dt className="text-muted">{t('admin.chain.success')}</dt>
          <dd className="text-fg">
            {provider.success_rate === null
              ? '—'
              : t('admin.percent', { percent: number(Math.round(provider.success_rate * 100)) })}
          </dd>
        </div>
        <div>
          <dt className="text-muted">{t('admin.chain.latency')}</dt>
          <dd className="text-fg">
            {provider.latency_ms === null ? '—' : t('admin.chain.ms', { ms: number(provider.latency_ms) })}
          </dd>
        </div>
        <div>
          <dt className="text-muted">{t('admin.chain.lag')}</dt>
          <dd className="text-fg">
            {provider.lag_blocks === null ? '—' : t('admin.chain.blocks', { count: provider.lag_blocks })}
          </dd>
        </div>
      </dl>
      {provider.set_aside_reason && (
        <p className="text-sm text-red-300">
          {t('admin.chain.setAsideReason', { reason: provider.set_aside_reason })}
        </p>
      )}
      {provider.suspended_keys > 0 && (
        <p className="text-sm text-amber-300">
          {provider.suspended_until
            ? t('admin.chain.keysLimitedUntil', {
                count: provider.suspended_keys,
                time: time(provider.suspended_until),
              })
            : t('admin.chain.keysLimited', { count: provider.suspended_keys })}
        </p>
      )}
      {provider.last_error && provider.last_error_at && (
        <p className="text-sm break-words text-muted">
          {t('admin.chain.lastError', { time: time(provider.last_error_at), error: provider.last_error })}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="ghost"
          disabled={test.isPending}
          onClick={() => test.mutate(provider.name)}
          aria-label={t('admin.chain.testName', { name: provider.name })}
        >
          {test.isPending ? t('admin.chain.testing') : t('admin.chain.test')}
        </Button>
        {result && (
          <span role="status" className={`text-sm ${result.ok ? 'text-emerald-300' : 'text-red-300'}`}>
            {result.ok
              ? t('admin.chain.answered', { ms: number(result.latency_ms), block: result.solid_head ?? '—' })
              : t('admin.chain.testFailed', { ms: number(result.latency_ms), error: result.error ?? '—' })}
          </span>
        )}
      </div>
    </li>
  )
}

/** The chain providers in the order reads try them, with what the operator needs to act. */
export function ChainTab() {
  const t = useT()
  const providers = useProviders()
  const follower = providers.data?.follower
  const sightings = providers.data?.sightings
  // With other chains enabled this panel is one chain's (TRON's, the default): it says so.
  const only = (providers.data?.enabled_chains.length ?? 1) < 2
  const chain = chainNames[providers.data?.chain ?? firstChain]
  return (
    <div className="flex flex-col gap-6">
      <ChainsOverview />
      <Panel title={only ? t('admin.chain.title') : t('admin.chain.titleOf', { chain })}>
        {!only && <p className="mb-2 text-sm text-muted">{t('admin.chain.introOf', { chain })}</p>}
        <p className="mb-2 text-sm text-muted">{t('admin.chain.intro')}</p>
        {follower && (
          <p className="mb-2 text-sm text-fg">
            {follower.lag_seconds === null
              ? t('admin.chain.follower', { block: follower.checkpoint ?? '—' })
              : t('admin.chain.followerBehind', {
                  block: follower.checkpoint ?? '—',
                  lag: minutesText(t, follower.lag_seconds),
                })}
          </p>
        )}
        {sightings && (
          <p className="mb-2 text-sm text-muted" data-testid="chain-sightings">
            {t('admin.chain.sightings', {
              mode: sightings.mode,
              seconds: sightings.look_every_s ?? 0,
              requests: sightings.requests_today,
            })}
          </p>
        )}
        {providers.isLoading ? (
          <p role="status" className="text-sm text-muted">
            {t('admin.loading')}
          </p>
        ) : providers.isError ? (
          <p role="alert" className="text-sm text-red-400">
            {t('admin.chain.loadFailed')}
          </p>
        ) : (
          <ul className="flex flex-col divide-y divide-line">
            {providers.data?.providers.map((p) => (
              <ProviderRow key={p.name} provider={p} />
            ))}
          </ul>
        )}
      </Panel>
    </div>
  )
}
