CREATE TABLE "auth_login_failure" (
	"auth_login_failure_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "auth_login_failure_auth_login_failure_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_login_failure_email_lower_check" CHECK ("auth_login_failure"."email" = lower("auth_login_failure"."email"))
);
--> statement-breakpoint
ALTER TABLE "auth_user" ADD COLUMN "tokens_valid_after" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "auth_login_failure_email_created_at_idx" ON "auth_login_failure" USING btree ("email","created_at");