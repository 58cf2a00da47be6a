CREATE TABLE "coach_pay_rule" (
	"coach_pay_rule_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "coach_pay_rule_coach_pay_rule_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"instructor_id" integer NOT NULL,
	"effective_from" date NOT NULL,
	"kind" text NOT NULL,
	"amount" numeric(12, 2),
	"percent" numeric(5, 2),
	"minimum" numeric(12, 2),
	"maximum" numeric(12, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coach_pay_rule_instructor_day_key" UNIQUE("instructor_id","effective_from"),
	CONSTRAINT "coach_pay_rule_amount_check" CHECK ("coach_pay_rule"."amount" is null or "coach_pay_rule"."amount" >= 0),
	CONSTRAINT "coach_pay_rule_percent_check" CHECK ("coach_pay_rule"."percent" is null or ("coach_pay_rule"."percent" >= 0 and "coach_pay_rule"."percent" <= 100))
);
--> statement-breakpoint
ALTER TABLE "coach_pay_rule" ADD CONSTRAINT "coach_pay_rule_instructor_id_instructor_instructor_id_fk" FOREIGN KEY ("instructor_id") REFERENCES "public"."instructor"("instructor_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "coach_pay_rule_instructor_idx" ON "coach_pay_rule" USING btree ("instructor_id","effective_from");