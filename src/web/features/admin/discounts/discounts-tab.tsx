import { useState } from 'react'
import type { DiscountCodeRow } from '../../../../shared/discounts'
import { DiscountFormPanel, useDiscountForm } from './discount-form'
import { DiscountList } from './discount-list'
import { blank, formOf } from './discount-values'

/** Discount codes: create, edit, disable; each with its uses and the revenue of its paid orders. */
export function DiscountsTab() {
  const [editing, setEditing] = useState<string | null>(null)
  const { form, saving } = useDiscountForm(() => setEditing(null))
  const edit = (code: DiscountCodeRow) => {
    form.reset(formOf(code))
    setEditing(code.code)
    window.scrollTo({ top: 0, behavior: 'smooth' })
  }
  return (
    <div className="grid gap-6">
      <DiscountFormPanel
        form={form}
        saving={saving}
        editing={editing}
        onCancel={() => {
          form.reset(blank)
          setEditing(null)
        }}
      />
      <DiscountList onEdit={edit} />
    </div>
  )
}
