import type { Db } from '../db/client'

/**
 * Hands out what a paid order bought: licence keys from stock (or generated) and the e-mail in the
 * outbox. Runs inside the transaction that marks the order paid, so both commit or neither does.
 * TODO(issue 5): keys and the outbox row.
 */
export async function fulfilOrder(_tx: Db, _orderId: string): Promise<void> {}
