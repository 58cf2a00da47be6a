CREATE TABLE "email_change" (
	"email_change_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "email_change_email_change_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uid" text NOT NULL,
	"new_email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_change_new_email_lower_check" CHECK ("email_change"."new_email" = lower("email_change"."new_email"))
);
--> statement-breakpoint
ALTER TABLE "email_change" ADD CONSTRAINT "email_change_uid_auth_user_uid_fk" FOREIGN KEY ("uid") REFERENCES "public"."auth_user"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "email_change_token_hash_key" ON "email_change" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "email_change_uid_idx" ON "email_change" USING btree ("uid");