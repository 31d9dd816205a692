import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from 'react-router'
import { Toaster } from 'sonner'
import { applyReloadRules } from './checkout-watch'
import { ConnectionMonitor } from './connection-monitor'
import { createAppRouter } from './router'
import { ThemeSync } from './theme'

const queryClient = new QueryClient({
  defaultOptions: {
    // The RPC client already retries what is safe to retry (lib/rpc-client.ts).
    queries: { retry: false, refetchOnWindowFocus: false },
  },
})

let router: ReturnType<typeof createAppRouter> | undefined

/** The reload rules run before the router reads the address bar. */
function getRouter() {
  if (!router) {
    applyReloadRules()
    router = createAppRouter()
  }
  return router
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeSync />
      <ConnectionMonitor />
      <RouterProvider router={getRouter()} />
      <Toaster position="top-right" visibleToasts={20} richColors theme="dark" duration={4000} closeButton />
    </QueryClientProvider>
  )
}
