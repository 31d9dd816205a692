import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Pencil, Plus, Trash2 } from 'lucide-react'
import { type FormEvent, useEffect, useState } from 'react'
import { type AdminProduct, adminMessages, productInputSchema } from '../../../shared/admin'
import { formatUsd } from '../../../shared/money'
import { Button } from '../../components/ui/button'
import { productKeys } from '../../lib/api/get-products'
import { toast } from '../../lib/toast'
import { adminApi, adminKeys } from './api/admin-api'
import { ConfirmDialog } from './components/confirm-dialog'
import { Field, Panel, TextArea, TextInput } from './components/fields'
import { parseKeyLinesCount } from './key-lines'

const TOAST = { duration: 3000 }

interface FormState {
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
}

const emptyForm: FormState = {
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
  }
}

export function ProductsTab() {
  const queryClient = useQueryClient()
  const products = useQuery({ queryKey: adminKeys.products, queryFn: adminApi.products })
  useEffect(() => {
    if (products.isError) toast.error('Failed to fetch products', { ...TOAST, id: 'products-error' })
  }, [products.isError])
  const [form, setForm] = useState<FormState | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [deleting, setDeleting] = useState<AdminProduct | null>(null)

  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: adminKeys.products }),
      // The storefront's catalogue in this tab.
      queryClient.invalidateQueries({ queryKey: productKeys.all }),
    ])
  }

  const saveProduct = useMutation({
    mutationFn: (input: { product: unknown; keys: string; isNew: boolean }) =>
      adminApi.saveProduct(input.product, input.keys),
    onSuccess: async (answer, { isNew }) => {
      if (!answer.success) {
        toast.error(answer.error || 'Failed to save product', TOAST)
        return
      }
      toast.success(isNew ? 'Product added successfully' : 'Product updated successfully', TOAST)
      setForm(null)
      await refresh()
    },
    onError: () => toast.error('Failed to save product', TOAST),
  })
  const saving = saveProduct.isPending

  const deleteProduct = useMutation({
    mutationFn: (product: AdminProduct) => adminApi.deleteProduct(product.id),
    onSuccess: async (answer) => {
      if (answer.success) toast.success('Product deleted successfully', TOAST)
      else toast.error('Failed to delete product', TOAST)
      await refresh()
    },
    onError: () => toast.error('Failed to delete product', TOAST),
    onSettled: () => setDeleting(null),
  })
  const busyDelete = deleteProduct.isPending

  function save(event: FormEvent) {
    event.preventDefault()
    if (!form || saving) return
    const candidate = {
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
    }
    const parsed = productInputSchema.safeParse(candidate)
    if (!parsed.success) {
      const next: Record<string, string> = {}
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? 'form')
        next[key] ??= key === 'price' && Number.isNaN(candidate.price) ? 'Price is required' : issue.message
      }
      setErrors(next)
      if (next.download_url === adminMessages.downloadUrlRequired)
        toast.error(adminMessages.downloadUrlRequired, TOAST)
      return
    }
    setErrors({})
    saveProduct.mutate({ product: parsed.data, keys: form.keys, isNew: !form.id })
  }

  function confirmDelete() {
    if (deleting) deleteProduct.mutate(deleting)
  }

  if (form) {
    // Editing a field clears its error; Free decides whether the download URL is required.
    const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
      setForm({ ...form, [key]: value })
      setErrors((current) => {
        const next: Record<string, string> = { ...current }
        delete next[key]
        if (key === 'is_free') delete next.download_url
        return next
      })
    }
    const stock = form.id ? (products.data?.products.find((p) => p.id === form.id)?.key_stock ?? 0) : 0
    return (
      <Panel title={form.id ? 'Edit Product' : 'Add Product'}>
        {/* Validation is the shared rules, so relative image paths (/images/...) pass as URLs. */}
        <form noValidate onSubmit={save} className="grid gap-4 md:grid-cols-2">
          <Field label="Name" error={errors.name}>
            <TextInput required value={form.name} onChange={(e) => set('name', e.target.value)} />
          </Field>
          <Field label="Image URL" error={errors.image}>
            <TextInput
              type="url"
              required
              value={form.image}
              onChange={(e) => set('image', e.target.value)}
            />
          </Field>
          <div className="md:col-span-2">
            <Field label="Description" error={errors.description}>
              <TextArea
                required
                className="font-sans"
                value={form.description}
                onChange={(e) => set('description', e.target.value)}
              />
            </Field>
          </div>
          <Field label="Price (USD)" error={errors.price}>
            <TextInput
              type="number"
              min={0}
              step={0.01}
              required={!form.is_free}
              disabled={form.is_free}
              value={form.is_free ? '0' : form.price}
              onChange={(e) => set('price', e.target.value)}
            />
          </Field>
          <Field label="Video ID" hint="Optional, e.g. a YouTube video id">
            <TextInput value={form.video_id} onChange={(e) => set('video_id', e.target.value)} />
          </Field>
          <div className="flex flex-wrap gap-6 md:col-span-2">
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={form.is_free}
                // The price field shows 0 while free; the typed price comes back when unticked.
                onChange={(e) => set('is_free', e.target.checked)}
              />
              Free Product
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={form.featured}
                onChange={(e) => set('featured', e.target.checked)}
              />
              Featured
            </label>
          </div>
          <div className="md:col-span-2">
            <Field label="Download URL" hint="Required for free products" error={errors.download_url}>
              <TextInput
                type="url"
                value={form.download_url}
                onChange={(e) => set('download_url', e.target.value)}
              />
            </Field>
          </div>
          <Field label="Features (one per line)" error={errors.features}>
            <TextArea required value={form.features} onChange={(e) => set('features', e.target.value)} />
          </Field>
          <Field
            label="Add licence keys (one per line)"
            hint={`${stock} key(s) left in stock${form.keys.trim() ? ` · ${parseKeyLinesCount(form.keys)} to add` : ''}`}
          >
            <TextArea value={form.keys} onChange={(e) => set('keys', e.target.value)} />
          </Field>
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end md:col-span-2">
            <Button
              variant="secondary"
              onClick={() => {
                setForm(null)
                setErrors({})
              }}
            >
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? 'Saving...' : form.id ? 'Update Product' : 'Add Product'}
            </Button>
          </div>
        </form>
      </Panel>
    )
  }

  const list = products.data?.products ?? []
  return (
    <Panel
      title="Products"
      actions={
        <Button onClick={() => setForm(emptyForm)}>
          <Plus className="size-4" aria-hidden />
          Add Product
        </Button>
      }
    >
      {products.isLoading ? (
        <p role="status" className="py-10 text-center text-muted">
          Loading products...
        </p>
      ) : list.length === 0 ? (
        <p className="py-10 text-center text-muted">No products found</p>
      ) : (
        <ul className="grid grid-cols-1 gap-3 md:grid-cols-2">
          {list.map((p) => (
            <li key={p.id} className="flex gap-3 rounded-xl border border-line p-3">
              <img src={p.image} alt="" className="size-16 shrink-0 rounded-lg bg-background object-cover" />
              <div className="min-w-0 flex-1">
                <h3 className="truncate font-semibold text-fg">{p.name}</h3>
                <p className="line-clamp-2 text-sm text-muted">{p.description}</p>
                <p className="mt-1 text-sm">
                  {p.is_free || p.price === 0 ? 'Free' : formatUsd(p.price)}
                  <span className="text-muted"> · {p.key_stock} key(s) left</span>
                </p>
              </div>
              <div className="flex shrink-0 flex-col gap-1">
                <Button variant="ghost" aria-label={`Edit ${p.name}`} onClick={() => setForm(formOf(p))}>
                  <Pencil className="size-4" aria-hidden />
                </Button>
                <Button variant="ghost" aria-label={`Delete ${p.name}`} onClick={() => setDeleting(p)}>
                  <Trash2 className="size-4 text-red-400" aria-hidden />
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete product"
        message={`Are you sure you want to delete "${deleting?.name ?? ''}"? Orders keep their own copy of it.`}
        busy={busyDelete}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </Panel>
  )
}
