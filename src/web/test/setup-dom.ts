// Shared by the browser-side tests (happy-dom): a clean localStorage and DOM between tests.
import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'

afterEach(() => {
  cleanup()
  window.localStorage.clear()
})
