import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from 'react-router'
import { Toaster } from 'sonner'
import { ConnectionMonitor } from './connection-monitor'
import { router } from './router'
import { ThemeSync } from './theme'

const queryClient = new QueryClient({
  defaultOptions: {
    // The RPC client already retries what is safe to retry (specification section 9).
    queries: { retry: false, refetchOnWindowFocus: false },
  },
})

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeSync />
      <ConnectionMonitor />
      <RouterProvider router={router} />
      <Toaster position="top-right" visibleToasts={20} richColors theme="dark" duration={4000} closeButton />
    </QueryClientProvider>
  )
}
