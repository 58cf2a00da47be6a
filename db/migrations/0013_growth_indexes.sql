-- Issue 21, decision 044: the reports read a range of days; at 100× the data
-- (200,000 customers, five years of sales) they scanned the whole table for it.
-- Sales, cash-up and gifts by day of sale (purchase.created_at), refunds and
-- card payments by day paid (invoice.paid_at), the customers report's new
-- accounts (customer.created_at), active customers (purchase.expiration_date)
-- and cancellations (coalesce(cancelled_at, updated_at), as the report writes it).
CREATE INDEX "customer_created_at_idx" ON "customer" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "invoice_paid_at_idx" ON "invoice" USING btree ("paid_at");--> statement-breakpoint
CREATE INDEX "purchase_created_at_idx" ON "purchase" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "purchase_expiration_date_idx" ON "purchase" USING btree ("expiration_date");--> statement-breakpoint
CREATE INDEX "purchase_cancelled_or_updated_idx" ON "purchase" USING btree (coalesce("cancelled_at", "updated_at"));