import { ShoppingBag } from 'lucide-react'

export function Logo({ mainText, subText }: { mainText: string; subText: string }) {
  return (
    <span className="flex items-center gap-2.5">
      <span className="flex size-9 items-center justify-center rounded-xl bg-primary text-on-primary shadow-lg shadow-primary/30">
        <ShoppingBag className="size-5" aria-hidden />
      </span>
      <span className="flex flex-col leading-none">
        <span className="text-lg font-bold tracking-tight text-fg">{mainText}</span>
        <span className="mt-0.5 text-[10px] font-semibold tracking-[0.25em] text-primary">{subText}</span>
      </span>
    </span>
  )
}
