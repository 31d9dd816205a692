-- Hand-written: an order's lines keep their unit price as integer cents (product.price_cents), never
-- as a binary float. Rows written before hold product.price in dollars; its decimal text is read as
-- numeric, so 49.99 becomes exactly 4999.
UPDATE orders SET items = (
  SELECT jsonb_agg(
    CASE WHEN e.item->'product' ? 'price' THEN
      jsonb_set(
        e.item,
        '{product}',
        ((e.item->'product') - 'price'::text)
          || jsonb_build_object('price_cents', round((e.item->'product'->>'price')::numeric * 100)::bigint)
      )
    ELSE e.item END
    ORDER BY e.ord
  )
  FROM jsonb_array_elements(orders.items) WITH ORDINALITY AS e(item, ord)
)
WHERE jsonb_typeof(items) = 'array' AND jsonb_array_length(items) > 0
  AND EXISTS (SELECT 1 FROM jsonb_array_elements(orders.items) AS x(item) WHERE x.item->'product' ? 'price');
