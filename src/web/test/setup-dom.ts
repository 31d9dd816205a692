// Shared by the browser-side tests (happy-dom): a clean localStorage and DOM between tests.
import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// Conditions are awaited (waitFor, findBy…), never slept on; on a busy machine a lazily loaded
// chunk (the toasts) can take more than the library's default second to arrive.
configure({ asyncUtilTimeout: 5_000 })

afterEach(() => {
  cleanup()
  window.localStorage.clear()
})
