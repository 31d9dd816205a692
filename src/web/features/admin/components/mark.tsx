/** A small late/underpaid badge. */
export function Mark({ tone, children }: { tone: 'amber' | 'red'; children: string }) {
  const colours = tone === 'amber' ? 'bg-amber-500/15 text-amber-300' : 'bg-red-500/15 text-red-300'
  return <span className={`rounded-md px-1.5 py-0.5 text-[11px] font-semibold ${colours}`}>{children}</span>
}
