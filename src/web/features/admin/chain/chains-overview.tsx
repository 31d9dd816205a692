import type { ChainOverview } from '../../../../shared/chain-overview'
import { chainNames } from '../../../../shared/networks'
import { useFormat, useT } from '../../../i18n/i18n'
import { Panel } from '../components/fields'
import { useChains } from './api/providers'

// Every enabled chain on its own line: each follows on its own, so one chain's trouble shows there
// and nowhere else.

function ChainCard({ chain }: { chain: ChainOverview }) {
  const t = useT()
  const { number, dateTime } = useFormat()
  const halted = chain.halted
  const down = chain.failing_since !== null
  const behind =
    chain.lag_blocks !== null && chain.confirmations !== null && chain.lag_blocks > chain.confirmations * 4
  return (
    <li
      className="flex flex-col gap-3 py-4"
      aria-label={chainNames[chain.chain]}
      data-testid={`chain-${chain.chain}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold text-fg">{chainNames[chain.chain]}</h3>
        <span
          className={`rounded-full px-2.5 py-1 text-xs font-semibold ${
            halted || down
              ? 'bg-red-500/15 text-red-300'
              : behind
                ? 'bg-amber-500/15 text-amber-300'
                : 'bg-emerald-500/15 text-emerald-300'
          }`}
        >
          {halted
            ? t('admin.chains.halted')
            : down
              ? t('admin.chains.down')
              : behind
                ? t('admin.chains.behind')
                : t('admin.chains.following')}
        </span>
      </div>
      {halted && (
        <div
          role="alert"
          className="flex flex-col gap-1.5 rounded-xl border border-red-500/40 bg-red-500/10 p-3 text-sm"
        >
          <p className="font-semibold break-words text-red-200">
            {t('admin.chains.haltedSince', { since: dateTime(halted.since), reason: halted.reason })}
          </p>
          <p className="text-fg">{t('admin.chains.haltedWhy', { block: chain.recorded ?? '—' })}</p>
          <p className="text-fg">{t('admin.chains.haltedWhat', { block: chain.recorded ?? '—' })}</p>
          <pre className="overflow-x-auto rounded-lg border border-line bg-black/30 px-3 py-2 font-mono text-xs text-fg">
            <code>{t('admin.chains.resetCommand', { chain: chain.chain })}</code>
          </pre>
        </div>
      )}
      {/* Stopped says more than "providers down" (its own block refused them): one message, not two. */}
      {!halted && down && chain.failing_since && (
        <p role="alert" className="text-sm text-red-300">
          {t('admin.chains.failingSince', { since: dateTime(chain.failing_since) })}
        </p>
      )}
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-5">
        <div>
          <dt className="text-muted">{t('admin.chains.finalHead')}</dt>
          <dd className="font-mono text-fg">{chain.final_head === null ? '—' : chain.final_head}</dd>
        </div>
        <div>
          <dt className="text-muted">{t('admin.chains.recorded')}</dt>
          <dd className="font-mono text-fg">{chain.recorded === null ? '—' : chain.recorded}</dd>
        </div>
        <div>
          <dt className="text-muted">{t('admin.chains.lag')}</dt>
          <dd className="text-fg">
            {chain.lag_blocks === null ? '—' : t('admin.chains.lagBlocks', { blocks: chain.lag_blocks })}
          </dd>
        </div>
        <div>
          <dt className="text-muted">{t('admin.chain.requestsToday')}</dt>
          <dd className="text-fg">
            {chain.per_day === null
              ? number(chain.requests_today)
              : t('admin.chain.requestsOf', {
                  used: number(chain.requests_today),
                  limit: number(chain.per_day),
                })}
          </dd>
        </div>
        <div>
          <dt className="text-muted">{t('admin.chains.final')}</dt>
          <dd className="text-fg">
            {chain.confirmations === null
              ? t('admin.chains.solidified')
              : t('admin.chains.depth', { blocks: chain.confirmations })}
          </dd>
        </div>
      </dl>
      <ul className="flex flex-wrap gap-2 text-xs">
        {chain.providers.map((p) => (
          <li key={p.name} className="rounded-lg border border-line px-2 py-1 text-muted">
            <span className="font-semibold text-fg">{p.name}</span> · {p.host} ·{' '}
            <span className={p.state === 'healthy' ? 'text-emerald-300' : 'text-amber-300'}>
              {t(`admin.chain.state.${p.state}`)}
            </span>
            {p.last_error && p.state !== 'healthy' ? ` · ${p.last_error}` : ''}
          </li>
        ))}
      </ul>
    </li>
  )
}

/** Shown when the shop takes more than one chain, or when a chain's follower has stopped. */
export function ChainsOverview() {
  const t = useT()
  const chains = useChains()
  const list = chains.data?.chains ?? []
  if (list.length < 2 && !list.some((c) => c.halted)) return null
  return (
    <Panel title={t('admin.chains.title')}>
      <ul className="flex flex-col divide-y divide-line">
        {list.map((c) => (
          <ChainCard key={c.chain} chain={c} />
        ))}
      </ul>
    </Panel>
  )
}
