import type { I18n } from '@lingui/core'
import type { z } from 'zod'
import type { AdminMessageId } from '../i18n/i18n'

// The one map from a schema's issue to the text a form shows at its field. In order:
//  1. the form's own words for that field (or any field) and that issue (or any issue);
//  2. else the schema's text, in the language of the messages the form is rendered with: the
//     shared schemas write their texts in English, word for word as the server answers them, and
//     schemaTexts names the message each is shown as (a text without one stays English);
//  3. a text that reads as the end of a sentence (a lower-case first letter) goes after the
//     field's label, as the language writes it (admin.form.withLabel).
// zod's own error maps cannot do this: a text written in a schema takes precedence over any map
// passed to parse, so the map reads the issues the parse produced.

export type Issue = z.core.$ZodIssue

/**
 * A form's own words for its errors, by field ('*' for any field): one text for every issue of
 * that field, or a text per issue code ('*' for any code).
 */
export type FormErrorWords = Readonly<Record<string, string | Partial<Record<Issue['code'] | '*', string>>>>

export interface FormErrorContext {
  /** The messages the form is rendered with (the admin's or the storefront's), if any. */
  i18n?: I18n
  /** Field labels, for a text that reads as the end of a sentence. */
  labels?: Readonly<Record<string, string>>
  words?: FormErrorWords
}

/** The text a form shows for `issue` at `field`. */
export function formErrorText(
  issue: Issue,
  field: string,
  { i18n, labels, words }: FormErrorContext,
): string {
  const english = ownWords(words, field, issue.code) ?? issue.message
  const id = schemaTexts[english]
  const text = id && i18n && id in i18n.messages ? i18n._(id) : english
  const label = labels?.[field]
  if (!label || !/^[a-z]/.test(english)) return text
  return i18n && 'admin.form.withLabel' in i18n.messages
    ? i18n._('admin.form.withLabel', { label, clause: text })
    : `${label} ${text}`
}

function ownWords(words: FormErrorWords | undefined, field: string, code: Issue['code']): string | undefined {
  for (const key of [field, '*']) {
    const own = words?.[key]
    if (typeof own === 'string') return own
    const text = own?.[code] ?? own?.['*']
    if (text !== undefined) return text
  }
  return undefined
}

/** The shared schemas' texts a form can show, and the message each is shown as. */

export const schemaTexts: Readonly<Record<string, AdminMessageId>> = {
  'is required': 'admin.form.required',
  'must be more than 0': 'admin.form.moreThanZero',
  'must be a whole number': 'admin.form.wholeNumber',
  'The end must be after the start': 'admin.form.endAfterStart',
  'Price must have at most 2 decimals': 'admin.form.priceDecimals',
  'Enter the percentage': 'admin.form.enterPercentage',
  'Enter the amount': 'admin.form.enterAmount',
  'must be an e-mail address, or empty': 'admin.form.emailOrEmpty',
  'must be an e-mail address': 'admin.form.email',
  'Please enter at least one wallet address': 'admin.form.walletRequired',
  'must be a 64-character hex transaction hash': 'admin.form.txHash',
  'letters, digits, - and _ only': 'admin.form.codeCharacters',
  'must be an http:// or https:// URL': 'admin.form.url',
  'Video id must be letters, digits, - or _': 'admin.form.videoId',
  'must be a colour like #26a17b': 'admin.form.colour',
  'must be a TRON address': 'admin.form.tronAddress',
  'Please enter a valid email address': 'admin.form.validEmail',
  'must be at least 3 characters': 'admin.form.atLeast3',
  'must be at least 1': 'admin.form.atLeast1',
  'choose at least one event': 'admin.form.chooseEvent',
  'Name is required': 'admin.form.nameRequired',
  'Description is required': 'admin.form.descriptionRequired',
  'At least one feature is required': 'admin.form.featureRequired',
  'Price must be at least 0': 'admin.form.priceMin',
  'is too large': 'admin.form.tooLarge',
  'must be at most 40 characters': 'admin.form.atMost40',
  'must be at most 100 %': 'admin.form.atMost100',
  'must be whole cents': 'admin.form.wholeCents',
  'must be whole basis points': 'admin.form.wholeBasisPoints',
  'Enter a TRON address (it starts with T, 34 characters)': 'admin.refund.badAddress',
  'Enter an address that starts with 0x and has 40 hex digits after it': 'admin.refund.badEvmAddress',
  'Enter a Solana address (32 to 44 letters and digits, base58)': 'admin.refund.badSolanaAddress',
  'Enter a TRON address (T…, 34 characters) or an address that starts with 0x (42 characters)':
    'admin.refund.badAnyAddress',
  'Download URL is required for free products': 'admin.products.downloadUrlRequired',
  'New passwords do not match': 'admin.security.mismatch',
}
