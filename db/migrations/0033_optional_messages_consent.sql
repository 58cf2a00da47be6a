-- Optional messages need the customer's own consent, off until given (decision 120). Every customer from before
-- this rule keeps what she had: a row is written for each one without it, with both channels on as before.
ALTER TABLE "message_preference" ALTER COLUMN "email_enabled" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "message_preference" ALTER COLUMN "whatsapp_enabled" SET DEFAULT false;--> statement-breakpoint
ALTER TABLE "message_preference" ADD COLUMN "optional_consent_at" timestamp with time zone;--> statement-breakpoint
INSERT INTO "message_preference" ("customer_id", "email_enabled", "whatsapp_enabled", "stop_token", "calendar_token")
SELECT "customer_id", true, true,
  replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''),
  replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')
FROM "customer"
ON CONFLICT ("customer_id") DO NOTHING;