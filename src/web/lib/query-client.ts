import { QueryClient, type QueryClientConfig } from '@tanstack/react-query'

/** The storefront's client; the admin panel's adds its error-toast policy (`mutationCache`). */
export function createQueryClient(config: Pick<QueryClientConfig, 'mutationCache'> = {}): QueryClient {
  return new QueryClient({
    ...config,
    defaultOptions: {
      // The one retry policy: the RPC client retries what is safe to retry (network errors and
      // 5xx, three times), so neither queries nor mutations retry on top of it.
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  })
}
