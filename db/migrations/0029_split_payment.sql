-- A counter sale paid partly in cash and the rest by card: each line keeps the part of its total paid in cash, so the
-- drawer, the cash-up and the reports by payment method split it.
ALTER TABLE "purchase" ADD COLUMN "cash_part" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "product_sale" ADD COLUMN "cash_part" numeric(12, 2);