import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { messagesPlugin } from './src/web/i18n/messages-plugin'

const outDir = 'dist/web'
const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|txt|xml|webmanifest)$/

/**
 * Brotli and gzip copies of every text file, written once at build time: the server sends the
 * copy the browser asks for (@fastify/static's preCompressed) and never compresses per request.
 */
function precompress(): Plugin {
  return {
    name: 'stablecart-precompress',
    apply: 'build',
    // The server-rendering build (--ssr) writes elsewhere and is never sent to browsers.
    applyToEnvironment: (environment) => environment.name === 'client',
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const path = join(dir, name)
          return statSync(path).isDirectory() ? walk(path) : [path]
        })
      for (const file of walk(outDir)) {
        // index.html is the server's template, never sent as it is.
        if (!COMPRESSIBLE.test(file) || file.endsWith('index.html')) continue
        const raw = readFileSync(file)
        if (raw.length < 512) continue
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(raw, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          }),
        )
        writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }))
      }
    },
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/web',
  publicDir: 'public',
  plugins: [messagesPlugin(), react(), tailwindcss(), precompress()],
  // The server-rendering bundle carries React with it: the server's runtime dependencies don't.
  ssr: { noExternal: true },
  build: isSsrBuild
    ? { outDir: '../../dist/ssr', emptyOutDir: true, copyPublicDir: false, sourcemap: false }
    : {
        outDir: `../../${outDir}`,
        emptyOutDir: true,
        sourcemap: false,
        // Every browser the shop serves preloads modules itself: no polyfill in the first chunk.
        modulePreload: { polyfill: false },
        rolldownOptions: {
          output: { codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] } },
        },
      },
  server: {
    proxy: { '/rpc': 'http://localhost:3000', '/api': 'http://localhost:3000' },
  },
}))
