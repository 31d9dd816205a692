import { Check } from 'lucide-react'
import { chainNames, type NetworkOption, tokenStandards } from '../../../../shared/networks'
import { useT } from '../../../i18n/i18n'

// The buyer's network and token at checkout: one radio per enabled network and stablecoin, so the
// arrow keys move between them and the page names the pick for a screen reader.

export const optionKey = (o: NetworkOption) => `${o.chain}:${o.token}`

export function NetworkChoice({
  options,
  value,
  onChange,
  disabled,
}: {
  options: readonly NetworkOption[]
  value: NetworkOption
  onChange: (option: NetworkOption) => void
  disabled?: boolean
}) {
  const t = useT()
  return (
    <fieldset className="mt-6" disabled={disabled}>
      <legend className="text-sm font-medium text-fg">{t('checkout.network.legend')}</legend>
      <p className="mt-1 text-xs text-muted" id="network-hint">
        {t('checkout.network.hint')}
      </p>
      <div className="mt-3 grid grid-cols-1 gap-2 sm:grid-cols-2" data-testid="network-choice">
        {options.map((option) => {
          const key = optionKey(option)
          const checked = key === optionKey(value)
          return (
            <label
              key={key}
              className={`flex cursor-pointer items-center gap-3 rounded-xl border px-3.5 py-3 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-primary ${
                checked ? 'border-primary bg-primary/10' : 'border-line bg-background hover:border-primary/50'
              }`}
            >
              <input
                type="radio"
                name="payment-network"
                value={key}
                checked={checked}
                onChange={() => onChange(option)}
                aria-describedby="network-hint"
                className="sr-only"
              />
              <span
                aria-hidden
                className={`flex size-5 shrink-0 items-center justify-center rounded-full border ${
                  checked ? 'border-primary bg-primary text-on-primary' : 'border-line'
                }`}
              >
                {checked && <Check className="size-3.5" />}
              </span>
              <span className="min-w-0 flex-1">
                <span className="block text-sm font-semibold text-fg">
                  {option.token} · {chainNames[option.chain]}
                </span>
                <span className="block text-xs text-muted">{tokenStandards[option.chain]}</span>
              </span>
            </label>
          )
        })}
      </div>
    </fieldset>
  )
}
