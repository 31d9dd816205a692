import { LinguiContext } from '@lingui/react'
import {
  type ChangeEvent,
  type FormEvent,
  type RefObject,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react'
import type { z } from 'zod'
import { type FormErrorWords, formErrorText, type Issue } from './form-errors'

// The one way a form works in src/web. The rules are a zod schema from src/shared (the same one
// the server applies); this hook keeps the form's values, checks them against the schema on
// submit, and, once a field has been checked, again whenever it changes. Errors are keyed by
// field name (the issue's path joined with '.', unless fieldOf says otherwise); the form renders
// each next to its control and ties it with aria-invalid and aria-describedby (the admin's
// <Field> does that, or control() + errorId() for a form with its own markup). A refused submit
// focuses the first invalid control in the form's DOM order.
//
// What an error says is decided in one place, form-errors.ts: the form's own words, else the
// schema's text in the form's language, after the field's label where it reads as a clause.
//
// The hook imports zod's types only: the schema the form passes in brings the library, so only
// the lazily loaded pages that have a form download it.

export type { Issue }

export type FieldErrors = Readonly<Record<string, string>>

export interface SchemaFormOptions<V, S extends z.ZodType> {
  schema: S
  initial: V | (() => V)
  /** What the schema checks, built from the form's values (default: the values as they are). */
  toInput?: (values: V) => unknown
  /** The field an issue belongs to (default: its path joined with '.'). */
  fieldOf?: (path: readonly PropertyKey[]) => string
  /** The form's own words for some errors (by field and issue code), instead of the schema's. */
  errors?: FormErrorWords
  /**
   * Field labels: a message that reads as the end of a sentence (lower-case first letter, as the
   * shared schemas write them for the server's "field: message" answers) is shown after its label.
   */
  labels?: Readonly<Record<string, string>>
  /** A submit that passed: the schema's output and the values it came from. */
  onValid: (data: z.output<S>, values: V) => void
  /** A submit that was refused, after its errors are shown (e.g. a toast the shop gives for one). */
  onInvalid?: (errors: FieldErrors) => void
}

export interface SchemaForm<V> {
  values: V
  errors: FieldErrors
  /** Sets a value by its field name ('name', or a path such as 'hero.title' or 'support.sections.0.title'). */
  set: <K extends string>(name: K, value: K extends keyof V ? V[K] : unknown) => void
  /** Replaces every value and forgets the errors (a saved or a newly loaded form). */
  reset: (values: V) => void
  /** Checks the values; valid ones go to onValid. Use as the form's onSubmit. */
  submit: (event?: FormEvent) => void
  /**
   * Checks one field now, before any submit (a value typed far enough to judge, or left): shows or
   * clears its error, and from then on it follows the value as a checked field does.
   */
  checkField: (name: string) => void
  /** Spread on the <form>: the schema validates, not the browser; the ref finds the first invalid control. */
  formProps: {
    ref: RefObject<HTMLFormElement | null>
    noValidate: true
    onSubmit: (event: FormEvent) => void
  }
  /** The id of a field's error text. */
  errorId: (name: string) => string
  /** aria-invalid and aria-describedby for a control rendered without <Field>. */
  control: (name: string) => ControlAria
  /**
   * A text box, text area or select bound to a field (a name or a dotted path): its value (''
   * while the path holds nothing), an onChange that sets it, and control()'s aria props. Spread
   * it on the control: `<TextInput {...form.field('hero.title')} />`.
   */
  field: (name: string) => BoundField
  /** A checkbox bound to a boolean field: checked, an onChange that sets it, and the aria props. */
  checkbox: (name: string) => BoundCheckbox
}

export type ControlAria = { 'aria-invalid'?: true; 'aria-describedby'?: string }
type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement
export type BoundField = ControlAria & { value: string; onChange: (event: ChangeEvent<Control>) => void }
export type BoundCheckbox = ControlAria & {
  checked: boolean
  onChange: (event: ChangeEvent<HTMLInputElement>) => void
}

/** Sets `value` at a dotted path, copying every object and array on the way. */
export function setIn<T>(target: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split('.')
  const key = head as string
  const source = target as Record<string, unknown>
  const next = rest.length === 0 ? value : setIn(source[key], rest.join('.'), value)
  if (Array.isArray(target)) {
    const copy = [...target]
    copy[Number(key)] = next
    return copy as T
  }
  return { ...source, [key]: next } as T
}

/** The value at a dotted path, or undefined where the path leads nowhere. */
export function getIn(target: unknown, path: string): unknown {
  let value = target
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}

const defaultFieldOf = (path: readonly PropertyKey[]) => path.map(String).join('.')

/** Whether an error keyed `field` is about the control `name` (itself, or a part of it). */
const concerns = (field: string, name: string) => field === name || field.startsWith(`${name}.`)

export function useSchemaForm<V, S extends z.ZodType>(options: SchemaFormOptions<V, S>): SchemaForm<V> {
  const [values, setValues] = useState<V>(options.initial)
  const [errors, setShownErrors] = useState<FieldErrors>({})
  // What the last change or submit left, read by the next one in the same event.
  const valuesRef = useRef(values)
  const errorsRef = useRef(errors)
  const setErrors = (next: FieldErrors) => {
    errorsRef.current = next
    setShownErrors(next)
  }
  // Bumped by each refused submit, so the focus moves even when the errors are the same as before.
  const [refusals, setRefusals] = useState(0)
  const submitted = useRef(false)
  const formRef = useRef<HTMLFormElement | null>(null)
  const baseId = useId()
  // The latest options, so the callbacks below never act on a stale render's closures.
  const latest = useRef(options)
  latest.current = options
  // The messages the form is rendered with (the admin's or the storefront's instance), if any.
  const lingui = useContext(LinguiContext)

  useEffect(() => {
    if (refusals === 0) return
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [refusals])

  function check(next: V): { ok: true; data: z.output<S> } | { ok: false; errors: Record<string, string> } {
    const { schema, toInput, fieldOf = defaultFieldOf, errors: words, labels } = latest.current
    const parsed = schema.safeParse(toInput ? toInput(next) : next)
    if (parsed.success) return { ok: true, data: parsed.data as z.output<S> }
    const found: Record<string, string> = {}
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path)
      if (field in found) continue
      found[field] = formErrorText(issue, field, { i18n: lingui?.i18n, labels, words })
    }
    return { ok: false, errors: found }
  }

  function set(name: string, value: unknown) {
    const next = setIn(valuesRef.current, name, value)
    valuesRef.current = next
    setValues(next)
    const errors = errorsRef.current
    // Only a field already checked (a submit happened, or it shows an error) is checked again:
    // its own error follows the value, others only ever disappear once fixed.
    if (!submitted.current && !Object.keys(errors).some((field) => concerns(field, name))) return
    const result = check(next)
    const now = result.ok ? {} : result.errors
    const kept: Record<string, string> = {}
    for (const [field, text] of Object.entries(now)) {
      if (concerns(field, name) || field in errors) kept[field] = text
    }
    setErrors(kept)
  }

  function submit(event?: FormEvent) {
    event?.preventDefault()
    submitted.current = true
    const values = valuesRef.current
    const result = check(values)
    if (result.ok) {
      setErrors({})
      latest.current.onValid(result.data, values)
      return
    }
    setErrors(result.errors)
    setRefusals((n) => n + 1)
    latest.current.onInvalid?.(result.errors)
  }

  function checkField(name: string) {
    const result = check(valuesRef.current)
    const kept: Record<string, string> = {}
    for (const [field, text] of Object.entries(errorsRef.current)) {
      if (!concerns(field, name)) kept[field] = text
    }
    if (!result.ok) {
      for (const [field, text] of Object.entries(result.errors)) {
        if (concerns(field, name)) kept[field] = text
      }
    }
    setErrors(kept)
  }

  function reset(next: V) {
    submitted.current = false
    valuesRef.current = next
    setValues(next)
    setErrors({})
  }

  const errorId = (name: string) => `${baseId}-${name.replaceAll('.', '-')}-error`
  const control = (name: string): ControlAria =>
    errors[name] ? { 'aria-invalid': true, 'aria-describedby': errorId(name) } : {}

  return {
    values,
    errors,
    set: set as SchemaForm<V>['set'],
    reset,
    submit,
    checkField,
    formProps: { ref: formRef, noValidate: true, onSubmit: submit },
    errorId,
    control,
    field: (name) => ({
      value: String(getIn(values, name) ?? ''),
      onChange: (event) => set(name, event.target.value),
      ...control(name),
    }),
    checkbox: (name) => ({
      checked: getIn(values, name) === true,
      onChange: (event) => set(name, event.target.checked),
      ...control(name),
    }),
  }
}
