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
    // The server-rendering build (--ssr) writes elsewhere and is never sent to browsers; `vite build
    // --ssr` builds in the environment named client, with build.ssr set.
    applyToEnvironment: (environment) => environment.name === 'client' && !environment.config.build.ssr,
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

/**
 * The server-rendering bundle is only ever read by the server, which keeps its source in memory for
 * as long as it runs: whitespace and comments out, every non-ASCII character escaped, so V8 holds it
 * as one byte a character (a single "—" or "中" makes all of it two bytes a character). About 1.9 MB
 * less in the idle shop (decision 046). Names stay as they are.
 */
function compactServerRendering(): Plugin {
  return {
    name: 'stablecart-compact-ssr',
    apply: 'build',
    // `vite build --ssr` builds in the environment named client, with build.ssr set.
    applyToEnvironment: (environment) => Boolean(environment.config.build.ssr),
    // On the finished chunks: what a renderChunk hook returned did not reach the files (Vite 8.3).
    async generateBundle(_options, bundle) {
      const { transform } = await import('esbuild')
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue
        const out = await transform(chunk.code, {
          format: 'esm',
          target: 'node22',
          charset: 'ascii',
          minifyWhitespace: true,
          legalComments: 'none',
        })
        chunk.code = out.code
      }
    },
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/web',
  publicDir: 'public',
  plugins: [messagesPlugin(), react(), tailwindcss(), precompress(), compactServerRendering()],
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
