import { build, type Metafile } from 'esbuild'
import { describe, expect, it } from 'vitest'

// What a first visit to the storefront downloads: the entry (main.tsx) and every chunk it imports
// statically; what it imports dynamically (a lazy page, a catalogue of messages) waits for its use.
// esbuild splits on the same dynamic imports as the production build, so the modules reached here
// are the ones in Vite's first chunk (decision 067).

async function firstLoad(): Promise<{ modules: Set<string>; packages: Set<string> }> {
  const result = await build({
    entryPoints: ['src/web/main.tsx'],
    bundle: true,
    splitting: true,
    format: 'esm',
    jsx: 'automatic',
    loader: { '.css': 'empty' },
    packages: 'external',
    outdir: 'first-load',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })
  const outputs: Metafile['outputs'] = result.metafile.outputs
  const entry = Object.keys(outputs).find((name) => outputs[name]?.entryPoint === 'src/web/main.tsx')
  const modules = new Set<string>()
  const packages = new Set<string>()
  const seen = new Set<string>()
  const visit = (name: string) => {
    if (seen.has(name)) return
    seen.add(name)
    const output = outputs[name]
    if (!output) return
    for (const input of Object.keys(output.inputs)) modules.add(input)
    for (const imported of output.imports) {
      if (imported.kind !== 'import-statement') continue
      if (imported.external) packages.add(imported.path.replace(/^((?:@[^/]+\/)?[^/]+).*$/, '$1'))
      else visit(imported.path)
    }
  }
  if (entry) visit(entry)
  return { modules, packages }
}

describe("the storefront's first load", () => {
  it('has the catalogue pages and no schema library, buying page or admin panel', async () => {
    const { modules, packages } = await firstLoad()
    // The walk itself: the catalogue pages are server-rendered and hydrate from the first chunk.
    expect(modules).toContain('src/web/features/catalog/listing-page.tsx')
    expect(modules).toContain('src/web/features/product/product-page.tsx')
    expect(modules).toContain('src/shared/networks.ts')
    expect(packages).toContain('react-dom')
    // zod is about 20 KB of compressed script: it comes with the first form or answer it checks.
    expect(packages).not.toContain('zod')
    const lazy = [...modules].filter((m) =>
      /^src\/web\/(features\/(cart|checkout|payment|dashboard|refund|order-links|admin)\/|app\/admin-)|^src\/shared\/network-schemas\.ts$/.test(
        m,
      ),
    )
    expect(lazy).toEqual([])
  })
})
