// The built-in site content, without the schema library, so the storefront's first load stays
// small. site-content.ts validates stored content against the same shape.
import type { SiteContent } from './site-content'

export const supportIcons = ['mail', 'messageCircle', 'clock', 'shield'] as const
export type SupportIcon = (typeof supportIcons)[number]

/**
 * In the hero's subtitle, what the shop accepts, filled in by the storefront from the enabled
 * networks ("USDT-TRC20 or TRX" with TRON alone; "USDT/USDC on 3 networks" with more): the default
 * text says it, and an operator's own text may use it too.
 */
export const ACCEPTED_PLACEHOLDER = '{accepted}'

export const defaultSiteContent: SiteContent = {
  logo: { mainText: 'Stablecart', subText: 'SOFTWARE' },
  navigation: { products: 'Products', support: 'Support' },
  hero: {
    title: 'Mobile proxy software, delivered instantly',
    subtitle:
      'Tools to run, rotate and check 4G, LTE and 5G mobile proxies in any country. Pay with {accepted} and get your key in minutes.',
    backgroundImage: '/images/hero-bg.svg',
  },
  meta: { title: 'Stablecart — Mobile Proxy Software' },
  theme: {
    primary: '#26a17b',
    primaryDark: '#1e8a67',
    background: '#0b1120',
    card: '#111827',
    accent: '#38bdf8',
  },
  support: {
    title: 'How can we help?',
    subtitle: 'Questions about an order, a licence key or a setup? Our team answers around the clock.',
    email: 'support@stablecart.example',
    response: 'Usually within 2 hours',
    sections: [
      {
        title: 'Email Support',
        description: 'Write to us with your order ID and we will get back to you quickly.',
        icon: 'mail',
      },
      {
        title: 'Live Chat',
        description: 'Talk to a specialist about proxy setup, rotation and country targeting.',
        icon: 'messageCircle',
      },
      {
        title: 'Fast Response',
        description: 'Most questions are answered within a couple of hours, day or night.',
        icon: 'clock',
      },
      {
        title: 'Secure & Private',
        description: 'Your order details are only used to deliver and support your purchase.',
        icon: 'shield',
      },
    ],
  },
}
