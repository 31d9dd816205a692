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
    '--theme-on-primary': luminance(theme.primary) > 0.45 ? '#0f172a' : '#ffffff',
  }
}

/** Applies site-content theme colours and meta.title to the document. */
export function ThemeSync() {
  const { content } = useSiteContent()
  useEffect(() => {
    const root = document.documentElement
    for (const [name, value] of Object.entries(themeVariables(content.theme)))
      root.style.setProperty(name, value)
    root.style.colorScheme = luminance(content.theme.background) > 0.4 ? 'light' : 'dark'
  }, [content.theme])
  useEffect(() => {
    document.title = content.meta.title
  }, [content.meta.title])
  return null
}
