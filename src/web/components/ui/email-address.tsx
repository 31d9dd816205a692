import { Fragment, type ReactNode } from 'react'

/**
 * An e-mail address as text, wherever the shop shows one. A browser may wrap a line after any hyphen,
 * and "very-long-name@example-company.com" split as "very-" / "long-name…" reads as a hyphenated word,
 * not as the address. Here each hyphen is held to the character after it, so the address wraps only
 * before its "@"; a side longer than the whole line is cut where the line ends (overflow-wrap), as a
 * code is, even inside a break-all block. Only inline elements: the text, its copy and its accessible
 * name are the address itself.
 */
export function EmailAddress({ email, className = '' }: { email: string; className?: string }) {
  const at = email.lastIndexOf('@')
  const sides = at > 0 ? [email.slice(0, at), email.slice(at)] : [email]
  return (
    <span className={`break-normal wrap-anywhere ${className}`}>
      {sides.map((side, i) => (
        <Fragment key={side}>
          {i > 0 && <wbr />}
          {unbrokenAtHyphens(side)}
        </Fragment>
      ))}
    </span>
  )
}

function unbrokenAtHyphens(text: string): ReactNode[] {
  // "very-long" → "very", <nowrap>"-l"</nowrap>, "ong": no line can end at the hyphen.
  return text.split(/(-+[^-]?)/).map((piece, i) =>
    i % 2 === 1 ? (
      <span key={i} className="whitespace-nowrap">
        {piece}
      </span>
    ) : (
      piece
    ),
  )
}
