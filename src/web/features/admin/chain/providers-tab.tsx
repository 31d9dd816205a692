import type { ProviderAnswer } from '../../../../shared/providers'
import { Button } from '../../../components/ui/button'
import { useProviders, useTestProvider } from '../api/providers'
import { Panel } from '../components/fields'

const stateLabels: Record<ProviderAnswer['state'], { text: string; className: string }> = {
  healthy: { text: 'Healthy', className: 'bg-emerald-500/15 text-emerald-300' },
  cooling: { text: 'Failing, retried soon', className: 'bg-amber-500/15 text-amber-300' },
  suspended: { text: 'Rate limited', className: 'bg-amber-500/15 text-amber-300' },
  exhausted: { text: "Day's limit reached", className: 'bg-red-500/15 text-red-300' },
  set_aside: { text: 'Set aside', className: 'bg-red-500/15 text-red-300' },
}

const time = (iso: string) => new Date(iso).toLocaleTimeString()

function minutesText(seconds: number): string {
  return seconds < 120 ? `${seconds} s` : `${Math.round(seconds / 60)} min`
}

function ProviderRow({ provider }: { provider: ProviderAnswer }) {
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
            {provider.host} · {provider.keys === 0 ? 'no key' : `${provider.keys} key(s)`}
          </p>
        </div>
        <span className={`rounded-full px-2.5 py-1 text-xs font-semibold ${state.className}`}>
          {state.text}
        </span>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-muted">Requests today</dt>
          <dd className={usedShare !== null && usedShare >= 0.8 ? 'text-amber-300' : 'text-fg'}>
            {provider.requests_today.toLocaleString()}
            {provider.per_day !== null && ` of ${provider.per_day.toLocaleString()}`}
          </dd>
        </div>
        <div>
          <dt className="text-muted">Success</dt>
          <dd className="text-fg">
            {provider.success_rate === null ? '—' : `${Math.round(provider.success_rate * 100)} %`}
          </dd>
        </div>
        <div>
          <dt className="text-muted">Latency</dt>
          <dd className="text-fg">{provider.latency_ms === null ? '—' : `${provider.latency_ms} ms`}</dd>
        </div>
        <div>
          <dt className="text-muted">Lag</dt>
          <dd className="text-fg">
            {provider.lag_blocks === null ? '—' : `${provider.lag_blocks} block(s)`}
          </dd>
        </div>
      </dl>
      {provider.set_aside_reason && (
        <p className="text-sm text-red-300">Set aside: {provider.set_aside_reason}</p>
      )}
      {provider.suspended_keys > 0 && (
        <p className="text-sm text-amber-300">
          {provider.suspended_keys} key(s) rate limited
          {provider.suspended_until && ` until ${time(provider.suspended_until)}`}
        </p>
      )}
      {provider.last_error && provider.last_error_at && (
        <p className="text-sm break-words text-muted">
          Last error at {time(provider.last_error_at)}: {provider.last_error}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="ghost"
          disabled={test.isPending}
          onClick={() => test.mutate(provider.name)}
          aria-label={`Test ${provider.name}`}
        >
          {test.isPending ? 'Testing...' : 'Test'}
        </Button>
        {result && (
          <span role="status" className={`text-sm ${result.ok ? 'text-emerald-300' : 'text-red-300'}`}>
            {result.ok
              ? `Answered in ${result.latency_ms} ms, solidified block ${result.solid_head}`
              : `Failed after ${result.latency_ms} ms: ${result.error}`}
          </span>
        )}
      </div>
    </li>
  )
}

/** The chain providers in the order reads try them, with what the operator needs to act. */
export function ChainTab() {
  const providers = useProviders()
  const follower = providers.data?.follower
  return (
    <div className="flex flex-col gap-6">
      <Panel title="Chain providers">
        <p className="mb-2 text-sm text-muted">
          Reads go to the first healthy provider in this order and move to the next at once when one fails.
        </p>
        {follower && (
          <p className="mb-2 text-sm text-fg">
            Payment detection has read up to block {follower.checkpoint ?? '—'}
            {follower.lag_seconds !== null && `, ${minutesText(follower.lag_seconds)} behind the chain`}.
          </p>
        )}
        {providers.isLoading ? (
          <p role="status" className="text-sm text-muted">
            Loading...
          </p>
        ) : providers.isError ? (
          <p role="alert" className="text-sm text-red-400">
            Could not load the providers.
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
