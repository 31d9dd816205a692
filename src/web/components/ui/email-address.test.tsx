// @vitest-environment happy-dom
import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import '../../test/setup-dom'
import { Msg } from '../../i18n/i18n'
import { renderWithProviders } from '../../test/render'
import { EmailAddress } from './email-address'

describe('EmailAddress', () => {
  it('is the address itself as text, with a break allowed only before the "@" and no hyphen left at a line end', () => {
    const { container } = renderWithProviders(
      <p>
        <Msg
          id="myOrders.intro"
          values={{ email: <EmailAddress email="very-long-name@example-company.com" /> }}
          components={{ 0: <strong /> }}
        />
      </p>,
    )
    const strong = container.querySelector('strong') as HTMLElement
    expect(strong.textContent).toBe('very-long-name@example-company.com')
    expect(screen.getByText(/^Paid orders of/).textContent).toMatch(
      /^Paid orders of very-long-name@example-company\.com\. This link/,
    )
    // The one break opportunity: before "@"; every hyphen sits with the character after it.
    expect(strong.querySelectorAll('wbr')).toHaveLength(1)
    expect(strong.querySelector('wbr')?.nextSibling?.textContent).toBe('@example')
    expect([...strong.querySelectorAll('.whitespace-nowrap')].map((s) => s.textContent)).toEqual([
      '-l',
      '-n',
      '-c',
    ])
  })
})
