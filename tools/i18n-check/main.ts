// npm run lint:i18n — fails (exit 1) on a missing message or an inline user-facing text.
import { checkRepository } from './check'

const findings = checkRepository(process.cwd())
for (const f of findings) console.error(`${f.file}${f.line ? `:${f.line}` : ''}  ${f.rule}: ${f.text}`)
if (findings.length > 0) {
  console.error(`\n${findings.length} i18n problem(s); docs/i18n.md says how to add a message.`)
  process.exit(1)
}
console.log('i18n: every message in every language, no inline text.')
