import { Pencil, Plus, Trash2 } from 'lucide-react'
import { useEffect, useState } from 'react'
import { type AdminProduct, productInputSchema } from '../../../../shared/admin'
import { localeNames, localeTags } from '../../../../shared/locale'
import type { ProductText, ProductTranslations } from '../../../../shared/localize'
import { Button } from '../../../components/ui/button'
import { useFormat, useT } from '../../../i18n/i18n'
import { useSchemaForm } from '../../../lib/form'
import { toast } from '../../../lib/toast'
import { ConfirmDialog } from '../components/confirm-dialog'
import { Field, Panel, TextArea, TextInput } from '../components/fields'
import { PRODUCT_TOAST, useAdminProducts, useDeleteProduct, useSaveProduct } from './api/products'
import { parseKeyLinesCount } from './key-lines'

const TOAST = PRODUCT_TOAST

export interface FormState {
  id?: number
  name: string
  description: string
  price: string
  image: string
  features: string
  video_id: string
  download_url: string
  is_free: boolean
  featured: boolean
  keys: string
  /** Name, description and features (one per line) in each language other than English; empty falls back to English. */
  translations: Record<TranslatedLocale, TextForm>
}

type TranslatedLocale = keyof ProductTranslations
export const translatedLocales: TranslatedLocale[] = ['zh', 'ru']

interface TextForm {
  name: string
  description: string
  features: string
}

const emptyText: TextForm = { name: '', description: '', features: '' }

function textFormOf(text: ProductText | undefined): TextForm {
  return {
    name: text?.name ?? '',
    description: text?.description ?? '',
    features: text?.features?.join('\n') ?? '',
  }
}

/** Only the texts written: the server keeps those, and the storefront shows English for the rest. */
function textOf(form: TextForm): ProductText {
  const name = form.name.trim()
  const description = form.description.trim()
  const features = form.features
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
  return {
    ...(name ? { name } : {}),
    ...(description ? { description } : {}),
    ...(features.length ? { features } : {}),
  }
}

export const emptyForm: FormState = {
  name: '',
  description: '',
  price: '',
  image: '',
  features: '',
  video_id: '',
  download_url: '',
  is_free: false,
  featured: false,
  keys: '',
  translations: { zh: emptyText, ru: emptyText },
}

function formOf(p: AdminProduct): FormState {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    price: String(p.price),
    image: p.image,
    features: p.features.join('\n'),
    video_id: p.video_id ?? '',
    download_url: p.download_url ?? '',
    is_free: p.is_free,
    featured: p.featured,
    keys: '',
    translations: { zh: textFormOf(p.translations?.zh), ru: textFormOf(p.translations?.ru) },
  }
}

/** What the shared product rules check, from the form's text fields. */
function productOf(form: FormState) {
  return {
    ...(form.id ? { id: form.id } : {}),
    name: form.name,
    description: form.description,
    price: form.is_free ? 0 : form.price.trim() === '' ? Number.NaN : Number(form.price),
    image: form.image,
    features: form.features.split(/\r?\n/),
    video_id: form.video_id,
    is_free: form.is_free,
    download_url: form.download_url,
    featured: form.featured,
    has_details: true,
    translations: Object.fromEntries(
      translatedLocales
        .map((locale) => [locale, textOf(form.translations[locale])] as const)
        .filter(([, text]) => Object.keys(text).length > 0),
    ),
  }
}

export function ProductsTab() {
  const t = useT()
  const { usd } = useFormat()
  const products = useAdminProducts()
  useEffect(() => {
    if (products.isError) toast.error(t('admin.products.fetchFailed'), { ...TOAST, id: 'products-error' })
  }, [products.isError, t])
  // The product being added (emptyForm) or edited; null shows the list.
  const [editing, setEditing] = useState<FormState | null>(null)
  const [deleting, setDeleting] = useState<AdminProduct | null>(null)

  const deleteProduct = useDeleteProduct()
  const busyDelete = deleteProduct.isPending

  function confirmDelete() {
    if (deleting) deleteProduct.mutate(deleting.id, { onSettled: () => setDeleting(null) })
  }

  if (editing) {
    const stock = editing.id ? (products.data?.products.find((p) => p.id === editing.id)?.key_stock ?? 0) : 0
    return (
      <ProductForm
        initial={editing}
        stock={stock}
        onClose={() => setEditing(null)}
        // The save has refreshed the lists already.
        onSaved={() => setEditing(null)}
      />
    )
  }

  const list = products.data?.products ?? []
  return (
    <Panel
      title={t('admin.products.title')}
      actions={
        <Button onClick={() => setEditing(emptyForm)}>
          <Plus className="size-4" aria-hidden />
          {t('admin.products.add')}
        </Button>
      }
    >
      {products.isLoading ? (
        <p role="status" className="py-10 text-center text-muted">
          {t('admin.products.loading')}
        </p>
      ) : list.length === 0 ? (
        <p className="py-10 text-center text-muted">{t('admin.products.empty')}</p>
      ) : (
        <ul className="grid grid-cols-1 gap-3 md:grid-cols-2">
          {list.map((p) => (
            <li key={p.id} className="flex gap-3 rounded-xl border border-line p-3">
              <img src={p.image} alt="" className="size-16 shrink-0 rounded-lg bg-background object-cover" />
              <div className="min-w-0 flex-1">
                <h3 className="truncate font-semibold text-fg">{p.name}</h3>
                <p className="line-clamp-2 text-sm text-muted">{p.description}</p>
                <p className="mt-1 text-sm">
                  {p.is_free || p.price === 0 ? t('admin.products.free') : usd(p.price)}
                  <span className="text-muted">
                    {' '}
                    · {t('admin.products.keysLeft', { count: p.key_stock })}
                  </span>
                </p>
              </div>
              <div className="flex shrink-0 flex-col gap-1">
                <Button
                  variant="ghost"
                  aria-label={t('admin.products.edit', { name: p.name })}
                  onClick={() => setEditing(formOf(p))}
                >
                  <Pencil className="size-4" aria-hidden />
                </Button>
                <Button
                  variant="ghost"
                  aria-label={t('admin.products.delete', { name: p.name })}
                  onClick={() => setDeleting(p)}
                >
                  <Trash2 className="size-4 text-red-400" aria-hidden />
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t('admin.products.deleteTitle')}
        message={t('admin.products.deleteConfirm', { name: deleting?.name ?? '' })}
        busy={busyDelete}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </Panel>
  )
}

/** Adds or edits one product; the shared product rules decide what may be saved. */
export function ProductForm({
  initial,
  stock,
  onClose,
  onSaved,
}: {
  initial: FormState
  /** Licence keys left for the product being edited. */
  stock: number
  onClose: () => void
  onSaved: () => void | Promise<void>
}) {
  const t = useT()
  const priceRequired = t('admin.products.priceRequired')
  const downloadUrlRequired = t('admin.products.downloadUrlRequired')
  const saveProduct = useSaveProduct()
  const saving = saveProduct.isPending
  const form = useSchemaForm({
    schema: productInputSchema,
    initial,
    toInput: productOf,
    // Features are checked line by line; any line's error is the features field's (in English or
    // in one of the translations).
    fieldOf: (path) =>
      path[0] === 'translations' ? path.slice(0, 3).map(String).join('.') : String(path[0] ?? ''),
    errors: { price: { invalid_type: priceRequired } },
    onValid: (product, values) => {
      if (saving) return
      saveProduct.mutate({ product, keys: values.keys, isNew: !values.id }, { onSuccess: () => onSaved() })
    },
    onInvalid: (errors) => {
      if (errors.download_url === downloadUrlRequired) toast.error(downloadUrlRequired, TOAST)
    },
  })
  const { values, errors } = form

  return (
    <Panel title={values.id ? t('admin.products.editTitle') : t('admin.products.add')}>
      {/* Validation is the shared rules, so relative image paths (/images/...) pass as URLs. */}
      <form {...form.formProps} className="grid gap-4 md:grid-cols-2">
        <Field label={t('admin.products.name')} error={errors.name}>
          <TextInput required {...form.field('name')} />
        </Field>
        <Field label={t('admin.products.image')} error={errors.image}>
          <TextInput type="url" required {...form.field('image')} />
        </Field>
        <div className="md:col-span-2">
          <Field label={t('admin.products.description')} error={errors.description}>
            <TextArea required className="font-sans" {...form.field('description')} />
          </Field>
        </div>
        <Field label={t('admin.products.price')} error={errors.price}>
          <TextInput
            type="number"
            min={0}
            step={0.01}
            required={!values.is_free}
            disabled={values.is_free}
            {...form.field('price')}
            // The price field shows 0 while free; the typed price comes back when unticked.
            value={values.is_free ? '0' : values.price}
          />
        </Field>
        <Field label={t('admin.products.video')} hint={t('admin.products.videoHint')} error={errors.video_id}>
          <TextInput {...form.field('video_id')} />
        </Field>
        <div className="flex flex-wrap gap-6 md:col-span-2">
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" {...form.checkbox('is_free')} />
            {t('admin.products.isFree')}
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" {...form.checkbox('featured')} />
            {t('admin.products.featured')}
          </label>
        </div>
        <div className="md:col-span-2">
          <Field
            label={t('admin.products.downloadUrl')}
            hint={t('admin.products.downloadUrlHint')}
            error={errors.download_url}
          >
            <TextInput type="url" {...form.field('download_url')} />
          </Field>
        </div>
        <Field label={t('admin.products.features')} error={errors.features}>
          <TextArea required {...form.field('features')} />
        </Field>
        <Field
          label={t('admin.products.keys')}
          hint={
            values.keys.trim()
              ? t('admin.products.stockAdding', { count: stock, adding: parseKeyLinesCount(values.keys) })
              : t('admin.products.stock', { count: stock })
          }
        >
          <TextArea {...form.field('keys')} />
        </Field>
        {translatedLocales.map((locale) => {
          const label = (
            id: 'admin.products.name' | 'admin.products.description' | 'admin.products.features',
          ) => t('admin.translations.field', { label: t(id), language: localeNames[locale] })
          return (
            <fieldset
              key={locale}
              className="grid min-w-0 gap-4 rounded-xl border border-line p-4 md:col-span-2 md:grid-cols-2"
            >
              <legend className="px-1 text-sm font-semibold text-fg">
                {t('admin.translations.legend', { language: localeNames[locale] })}
              </legend>
              <p className="text-xs text-muted md:col-span-2">{t('admin.translations.fallback')}</p>
              <Field label={label('admin.products.name')} error={errors[`translations.${locale}.name`]}>
                <TextInput
                  lang={localeTags[locale]}
                  placeholder={values.name}
                  {...form.field(`translations.${locale}.name`)}
                />
              </Field>
              <Field
                label={label('admin.products.features')}
                error={errors[`translations.${locale}.features`]}
              >
                <TextArea
                  lang={localeTags[locale]}
                  placeholder={values.features}
                  {...form.field(`translations.${locale}.features`)}
                />
              </Field>
              <div className="md:col-span-2">
                <Field
                  label={label('admin.products.description')}
                  error={errors[`translations.${locale}.description`]}
                >
                  <TextArea
                    lang={localeTags[locale]}
                    className="font-sans"
                    placeholder={values.description}
                    {...form.field(`translations.${locale}.description`)}
                  />
                </Field>
              </div>
            </fieldset>
          )
        })}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end md:col-span-2">
          <Button variant="secondary" onClick={onClose}>
            {t('admin.cancel')}
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? t('admin.saving') : values.id ? t('admin.products.update') : t('admin.products.add')}
          </Button>
        </div>
      </form>
    </Panel>
  )
}
