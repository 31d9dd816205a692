import type { ButtonHTMLAttributes } from 'react'

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger'

const base =
  'inline-flex items-center justify-center gap-2 rounded-xl px-4 py-2.5 text-sm font-semibold transition ' +
  'disabled:cursor-not-allowed disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2'

export const buttonStyles: Record<Variant, string> = {
  primary: `${base} bg-primary text-on-primary shadow-lg shadow-primary/20 hover:bg-primary-dark`,
  secondary: `${base} border border-line bg-white/5 text-fg hover:bg-white/10`,
  ghost: `${base} text-muted hover:bg-white/5 hover:text-fg`,
  danger: `${base} bg-red-600 text-white hover:bg-red-700`,
}

export function Button({
  variant = 'primary',
  className = '',
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return <button type={type} className={`${buttonStyles[variant]} ${className}`} {...props} />
}
