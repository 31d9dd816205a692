import { useEffect } from 'react'
import type { SiteContent } from '../../shared/site-content'
import { useSiteContent } from '../lib/api/get-site-content'

function luminance(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16)
  const channel = (v: number) => {
    const c = v / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255)
}

/** WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

const DARK_TEXT = '#0f172a'
const LIGHT_TEXT = '#ffffff'

/** The text colour for buttons and badges: the one that reads best on both primary shades. */
export function onPrimaryText(theme: Pick<SiteContent['theme'], 'primary' | 'primaryDark'>): string {
  const worst = (text: string) =>
    Math.min(contrastRatio(text, theme.primary), contrastRatio(text, theme.primaryDark))
  return worst(DARK_TEXT) > worst(LIGHT_TEXT) ? DARK_TEXT : LIGHT_TEXT
}

/** CSS variables for the theme, with text colours chosen to stay readable on the merchant's background. */
export function themeVariables(theme: SiteContent['theme']): Record<string, string> {
  const light = luminance(theme.background) > 0.4
  return {
    '--theme-primary': theme.primary,
    '--theme-primary-dark': theme.primaryDark,
    '--theme-background': theme.background,
    '--theme-card': theme.card,
    '--theme-accent': theme.accent,
    '--theme-fg': light ? '#0f172a' : '#e5e7eb',
    '--theme-muted': light ? '#475569' : '#94a3b8',
    '--theme-line': light ? 'rgb(15 23 42 / 0.12)' : 'rgb(255 255 255 / 0.08)',
    '--theme-on-primary': onPrimaryText(theme),
  }
}

/** Applies site-content theme colours and meta.title to the document. */
export function ThemeSync() {
  const { content } = useSiteContent()
  useEffect(() => {
    const root = document.documentElement
    // The server wrote the same values into <html>: only a change restyles the page.
    for (const [name, value] of Object.entries(themeVariables(content.theme)))
      if (root.style.getPropertyValue(name) !== value) root.style.setProperty(name, value)
    const scheme = luminance(content.theme.background) > 0.4 ? 'light' : 'dark'
    if (root.style.colorScheme !== scheme) root.style.colorScheme = scheme
  }, [content.theme])
  useEffect(() => {
    document.title = content.meta.title
  }, [content.meta.title])
  return null
}
