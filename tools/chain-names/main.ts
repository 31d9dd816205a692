import { findChainNames } from './check'

// npm run lint:chains: fails when code outside the family folders names a chain family (decision
// 050). There is no baseline: every place found fails, and says where to ask the family object.

const findings = findChainNames(process.cwd(), ['src'])
for (const f of findings) console.error(`${f.file}:${f.line}  ${f.what}: ${f.text}`)
if (findings.length > 0) {
  const files = new Set(findings.map((f) => f.file)).size
  console.error(
    `chain names: ${findings.length} in ${files} file(s) outside the family folders; ask the family object (chains/families.ts) or the chain's adapter instead`,
  )
  process.exit(1)
}
console.log('chain names: none outside the family folders')
