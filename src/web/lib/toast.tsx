import { type ComponentProps, lazy, Suspense, useEffect, useState } from 'react'

// Toasts load their library on the first toast, not with the page: a first visit that never
// shows one never downloads it. The same calls as the library's own (error, success, dismiss).
type Sonner = typeof import('sonner')
type ToastOptions = Parameters<Sonner['toast']['error']>[1]

let library: Promise<Sonner> | undefined
let mounted: Promise<void> | undefined
let resolveMounted: (() => void) | undefined
let requestMount: (() => void) | undefined

const load = () => {
  library ??= import('sonner')
  return library
}

/** Resolves once the Toaster listens, so no toast is lost before it is on screen. */
function ready(): Promise<Sonner> {
  if (!mounted) {
    mounted = new Promise((resolve) => {
      resolveMounted = resolve
    })
    requestMount?.()
  }
  return Promise.all([load(), mounted]).then(([sonner]) => sonner)
}

export const toast = {
  error(message: string, options?: ToastOptions): void {
    void ready().then((s) => s.toast.error(message, options))
  },
  success(message: string, options?: ToastOptions): void {
    void ready().then((s) => s.toast.success(message, options))
  },
  /** Without an id, every toast; resolves once the library has been told. */
  async dismiss(id?: string | number): Promise<void> {
    // Nothing to dismiss before the first toast.
    if (library) (await library).toast.dismiss(id)
  },
}

const LazyToaster = lazy(async () => ({ default: (await load()).Toaster }))

function Mounted() {
  useEffect(() => resolveMounted?.(), [])
  return null
}

/** Mount once near the root; renders the library's Toaster after the first toast asks for it. */
export function Toaster(props: ComponentProps<Sonner['Toaster']>) {
  const [show, setShow] = useState(false)
  useEffect(() => {
    requestMount = () => setShow(true)
    if (mounted) setShow(true)
    return () => {
      requestMount = undefined
    }
  }, [])
  if (!show) return null
  return (
    <Suspense fallback={null}>
      <LazyToaster {...props} />
      <Mounted />
    </Suspense>
  )
}
