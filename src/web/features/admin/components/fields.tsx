import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react'

export const inputClass =
  'w-full rounded-xl border border-line bg-background px-3.5 py-2.5 text-sm text-fg placeholder:text-muted/70 ' +
  'focus:border-primary focus:outline-none disabled:cursor-not-allowed disabled:opacity-60'

export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string
  hint?: ReactNode
  error?: string
  children: ReactNode
}) {
  // Hint and error sit outside the label, so the control's accessible name is the label alone.
  return (
    <div className="flex flex-col gap-1.5">
      {/* biome-ignore lint/a11y/noLabelWithoutControl: the control is the child */}
      <label className="flex flex-col gap-1.5">
        <span className="text-sm font-medium text-fg">{label}</span>
        {children}
      </label>
      {hint && <span className="text-xs text-muted">{hint}</span>}
      {error && (
        <span role="alert" className="text-xs text-red-400">
          {error}
        </span>
      )}
    </div>
  )
}

export function TextInput(props: InputHTMLAttributes<HTMLInputElement>) {
  return <input {...props} className={`${inputClass} ${props.className ?? ''}`} />
}

export function TextArea(props: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea {...props} className={`${inputClass} min-h-28 font-mono ${props.className ?? ''}`} />
}

export function Panel({
  title,
  actions,
  children,
}: {
  title: string
  actions?: ReactNode
  children: ReactNode
}) {
  return (
    <section className="rounded-2xl border border-line bg-card p-4 sm:p-6">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-fg">{title}</h2>
        {actions}
      </div>
      {children}
    </section>
  )
}
