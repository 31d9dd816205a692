import type { DeliveryModeOption } from '../../../../shared/cockpit'
import type { MessageId } from '../../../i18n/i18n'

/** How each delivery mode is named in the sales view and the stock tab. */
export const deliveryModeLabels: Record<DeliveryModeOption, MessageId> = {
  stock_only: 'admin.cockpit.deliveryMode.stock_only',
  stock_then_generated: 'admin.cockpit.deliveryMode.stock_then_generated',
  none: 'admin.cockpit.deliveryMode.none',
}
