import { readJson, removeKey, storageKeys, writeJson } from '../../../lib/storage'

// The local logged-in flag (admin-auth in localStorage). It only steers the screens: the server's session decides.
export const adminAuthFlag = {
  get: () => readJson<boolean>(storageKeys.adminAuth, false) === true,
  set: () => writeJson(storageKeys.adminAuth, true),
  clear: () => removeKey(storageKeys.adminAuth),
}
