CREATE TABLE "auth_user" (
	"uid" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone,
	CONSTRAINT "auth_user_email_lower_check" CHECK ("auth_user"."email" = lower("auth_user"."email"))
);
--> statement-breakpoint
CREATE TABLE "password_reset" (
	"password_reset_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "password_reset_password_reset_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uid" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_token" (
	"refresh_token_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "refresh_token_refresh_token_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uid" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "address" (
	"address_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "address_address_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer,
	"street" text,
	"number" text,
	"interior_number" text,
	"neighborhood" text,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"country" text NOT NULL,
	"zip_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer" (
	"customer_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "customer_customer_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"uid" text,
	"name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"instagram" text,
	"birthdate" date,
	"file_id" integer,
	"signup_reason" text,
	"signup_reason_other" text,
	"role" text DEFAULT 'customer' NOT NULL,
	"has_unlimited" boolean DEFAULT false NOT NULL,
	"unlimited_membership_expiration" timestamp with time zone,
	"unlimited_max_no_shows_for_penalty" integer,
	"address_id" integer,
	"stripe_customer_id" text,
	"paypal_payer_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "customer_email_lower_check" CHECK ("customer"."email" = lower("customer"."email")),
	CONSTRAINT "customer_role_check" CHECK ("customer"."role" in ('customer', 'staff', 'admin')),
	CONSTRAINT "customer_no_shows_check" CHECK ("customer"."unlimited_max_no_shows_for_penalty" is null or "customer"."unlimited_max_no_shows_for_penalty" >= 0)
);
--> statement-breakpoint
CREATE TABLE "accepted_page" (
	"accepted_page_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "accepted_page_accepted_page_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"page_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "announcement" (
	"announcement_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "announcement_announcement_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"content" text NOT NULL,
	"file_id" integer,
	"available" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "custom_field" (
	"custom_field_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "custom_field_custom_field_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"object" text NOT NULL,
	"key" text NOT NULL,
	"label" text,
	"type" text NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"options" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file" (
	"file_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "file_file_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"type" text NOT NULL,
	"src" text NOT NULL,
	"storage" text DEFAULT 'server' NOT NULL,
	"storage_key" text,
	"size" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form" (
	"form_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "form_form_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"object" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "form_field" (
	"form_field_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "form_field_form_field_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"form_id" integer NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"step" integer DEFAULT 0 NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"label" text NOT NULL,
	"type" text NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"options" jsonb,
	"precondition" jsonb,
	"value" text,
	CONSTRAINT "form_field_type_check" CHECK ("form_field"."type" in ('file','date','text','time','image','phone','select','number','boolean','textarea','datetime-local','creatable-select'))
);
--> statement-breakpoint
CREATE TABLE "page" (
	"page_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "page_page_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"content" text,
	"required" boolean DEFAULT false NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_config" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
CREATE TABLE "outbox_message" (
	"outbox_message_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "outbox_message_outbox_message_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"subject" text,
	"body" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "outbox_message_channel_check" CHECK ("outbox_message"."channel" in ('email', 'whatsapp')),
	CONSTRAINT "outbox_message_status_check" CHECK ("outbox_message"."status" in ('pending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "class_category" (
	"class_category_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "class_category_class_category_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"handle" text NOT NULL,
	"description" text,
	"available" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "class_type" (
	"class_type_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "class_type_class_type_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text,
	"icon" text,
	"image" text,
	"spot_map" text,
	"class_category_id" integer,
	"available" boolean DEFAULT true NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "class_type_spot_map_check" CHECK ("class_type"."spot_map" is null or "class_type"."spot_map" ~ '^[0-9]+(,[0-9]+)*$')
);
--> statement-breakpoint
CREATE TABLE "instructor" (
	"instructor_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "instructor_instructor_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"last_name" text NOT NULL,
	"nick_name" text,
	"quote" text,
	"short_bio" text,
	"instagram" text,
	"birthdate" date,
	"music_type" text,
	"file_id" integer,
	"customer_id" integer,
	"show_on_home" boolean DEFAULT true NOT NULL,
	"available" boolean DEFAULT true NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "location" (
	"location_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "location_location_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"address" text NOT NULL,
	"city" text,
	"phone" text,
	"maps_url" text,
	"available" boolean DEFAULT true NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "single_class" (
	"single_class_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "single_class_single_class_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"class_date" timestamp with time zone NOT NULL,
	"duration_minutes" integer DEFAULT 50 NOT NULL,
	"description" text,
	"capacity" integer NOT NULL,
	"location_id" integer NOT NULL,
	"class_type_id" integer NOT NULL,
	"class_package_id" integer,
	"icon" text,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "single_class_capacity_check" CHECK ("single_class"."capacity" >= 0),
	CONSTRAINT "single_class_duration_check" CHECK ("single_class"."duration_minutes" > 0)
);
--> statement-breakpoint
CREATE TABLE "single_class_instructor" (
	"single_class_id" integer NOT NULL,
	"instructor_id" integer NOT NULL,
	CONSTRAINT "single_class_instructor_single_class_id_instructor_id_pk" PRIMARY KEY("single_class_id","instructor_id")
);
--> statement-breakpoint
CREATE TABLE "single_class_tag" (
	"single_class_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "single_class_tag_single_class_id_tag_id_pk" PRIMARY KEY("single_class_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "class_reservation" (
	"class_reservation_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "class_reservation_class_reservation_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"single_class_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"available_class_id" integer,
	"spot" integer,
	"guest" text,
	"attend" boolean DEFAULT false NOT NULL,
	"attended_at" timestamp with time zone,
	"is_cash" boolean DEFAULT false NOT NULL,
	"is_paid" boolean DEFAULT true NOT NULL,
	"class_stars" smallint,
	"coach_stars" smallint,
	"comment" text,
	"rated_at" timestamp with time zone,
	"credit_returned" boolean,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "class_reservation_spot_check" CHECK ("class_reservation"."spot" is null or "class_reservation"."spot" >= 1),
	CONSTRAINT "class_reservation_class_stars_check" CHECK ("class_reservation"."class_stars" is null or "class_reservation"."class_stars" between 1 and 5),
	CONSTRAINT "class_reservation_coach_stars_check" CHECK ("class_reservation"."coach_stars" is null or "class_reservation"."coach_stars" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "class_reservation_penalty" (
	"class_reservation_penalty_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "class_reservation_penalty_class_reservation_penalty_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"start_date" timestamp with time zone DEFAULT now() NOT NULL,
	"end_date" timestamp with time zone NOT NULL,
	"no_shows" integer NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "class_reservation_penalty_dates_check" CHECK ("class_reservation_penalty"."end_date" > "class_reservation_penalty"."start_date")
);
--> statement-breakpoint
CREATE TABLE "waitlist" (
	"waitlist_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "waitlist_waitlist_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"single_class_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"notified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "class_package" (
	"class_package_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "class_package_class_package_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"description" text,
	"short_description" text,
	"price" numeric(12, 2) NOT NULL,
	"sale_price" numeric(12, 2),
	"class_amount" integer DEFAULT 0 NOT NULL,
	"expiration_days" integer,
	"is_subscription" boolean DEFAULT false NOT NULL,
	"subscription_period" text,
	"subscription_interval" integer,
	"free_trial_length" integer,
	"free_trial_period" text,
	"is_trial" boolean DEFAULT false NOT NULL,
	"is_special_event" boolean DEFAULT false NOT NULL,
	"event_date" timestamp with time zone,
	"is_presencial" boolean DEFAULT true NOT NULL,
	"is_online" boolean DEFAULT false NOT NULL,
	"is_signup_fee" boolean DEFAULT false NOT NULL,
	"limit_per_customer" integer,
	"people_limit" integer,
	"image" text,
	"receipt_file_id" integer,
	"downloadable_file_id" integer,
	"show_on_home" boolean DEFAULT false NOT NULL,
	"available" boolean DEFAULT true NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"stripe_product_id" text,
	"stripe_price_id" text,
	"paypal_plan_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "class_package_price_check" CHECK ("class_package"."price" >= 0 and ("class_package"."sale_price" is null or "class_package"."sale_price" >= 0)),
	CONSTRAINT "class_package_class_amount_check" CHECK ("class_package"."class_amount" >= -1),
	CONSTRAINT "class_package_expiration_days_check" CHECK ("class_package"."expiration_days" is null or "class_package"."expiration_days" > 0),
	CONSTRAINT "class_package_subscription_check" CHECK (not "class_package"."is_subscription" or ("class_package"."subscription_period" is not null and "class_package"."subscription_interval" > 0)),
	CONSTRAINT "class_package_subscription_period_check" CHECK ("class_package"."subscription_period" is null or "class_package"."subscription_period" in ('day', 'week', 'month', 'year')),
	CONSTRAINT "class_package_limit_per_customer_check" CHECK ("class_package"."limit_per_customer" is null or "class_package"."limit_per_customer" > 0),
	CONSTRAINT "class_package_people_limit_check" CHECK ("class_package"."people_limit" is null or "class_package"."people_limit" >= 0),
	CONSTRAINT "class_package_free_trial_check" CHECK ("class_package"."free_trial_length" is null or "class_package"."free_trial_length" >= 0)
);
--> statement-breakpoint
CREATE TABLE "class_package_type" (
	"class_package_type_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "class_package_type_class_package_type_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"class_package_id" integer NOT NULL,
	"class_type_id" integer NOT NULL,
	"class_amount" integer NOT NULL,
	"expiration_days" integer,
	"allowed_times" text,
	CONSTRAINT "class_package_type_class_amount_check" CHECK ("class_package_type"."class_amount" >= -1)
);
--> statement-breakpoint
CREATE TABLE "available_classes" (
	"available_class_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "available_classes_available_class_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"purchase_id" integer,
	"class_type_id" integer,
	"available_classes" integer NOT NULL,
	"expiration_date" timestamp with time zone,
	"allowed_times" text,
	"cancels_used" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "available_classes_amount_check" CHECK ("available_classes"."available_classes" >= -1),
	CONSTRAINT "available_classes_cancels_used_check" CHECK ("available_classes"."cancels_used" >= 0)
);
--> statement-breakpoint
CREATE TABLE "invoice" (
	"invoice_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "invoice_invoice_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"purchase_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"total_payment" numeric(12, 2) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider_invoice_id" text,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_status_check" CHECK ("invoice"."status" in ('pending', 'completed', 'failed', 'cancelled', 'refunded')),
	CONSTRAINT "invoice_total_check" CHECK ("invoice"."total_payment" >= 0)
);
--> statement-breakpoint
CREATE TABLE "purchase" (
	"purchase_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "purchase_purchase_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"class_package_id" integer NOT NULL,
	"payment_method_id" integer,
	"payment_source_id" integer,
	"discount_id" integer,
	"title" text NOT NULL,
	"amount" numeric(12, 2) NOT NULL,
	"total_payment" numeric(12, 2) NOT NULL,
	"class_amount" integer NOT NULL,
	"expiration_days" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"subscription_id" text,
	"subscription_interval" integer,
	"subscription_period" text,
	"free_trial_length" integer,
	"free_trial_period" text,
	"is_gift" boolean DEFAULT false NOT NULL,
	"provider" text,
	"provider_payment_id" text,
	"provider_session_id" text,
	"cancel_reason" text,
	"expiration_date" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "purchase_status_check" CHECK ("purchase"."status" in ('active', 'completed', 'pending', 'failed', 'cancelled', 'revoked')),
	CONSTRAINT "purchase_amounts_check" CHECK ("purchase"."amount" >= 0 and "purchase"."total_payment" >= 0),
	CONSTRAINT "purchase_class_amount_check" CHECK ("purchase"."class_amount" >= -1)
);
--> statement-breakpoint
CREATE TABLE "discount" (
	"discount_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "discount_discount_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"description" text,
	"amount" numeric(12, 2) NOT NULL,
	"is_percent" boolean DEFAULT false NOT NULL,
	"first_invoice_only" boolean DEFAULT false NOT NULL,
	"max_uses" integer,
	"max_uses_per_customer" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"available" boolean DEFAULT true NOT NULL,
	"stripe_coupon_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "discount_amount_check" CHECK ("discount"."amount" >= 0 and (not "discount"."is_percent" or "discount"."amount" <= 100)),
	CONSTRAINT "discount_uses_check" CHECK ("discount"."uses" >= 0 and ("discount"."max_uses" is null or "discount"."uses" <= "discount"."max_uses")),
	CONSTRAINT "discount_max_uses_check" CHECK ("discount"."max_uses" is null or "discount"."max_uses" >= 0),
	CONSTRAINT "discount_max_uses_per_customer_check" CHECK ("discount"."max_uses_per_customer" is null or "discount"."max_uses_per_customer" >= 0)
);
--> statement-breakpoint
CREATE TABLE "discount_class_package" (
	"discount_id" integer NOT NULL,
	"class_package_id" integer NOT NULL,
	CONSTRAINT "discount_class_package_discount_id_class_package_id_pk" PRIMARY KEY("discount_id","class_package_id")
);
--> statement-breakpoint
CREATE TABLE "discount_use" (
	"discount_use_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "discount_use_discount_use_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"discount_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"purchase_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_method" (
	"payment_method_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_method_payment_method_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text,
	"provider" text NOT NULL,
	"available" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_source" (
	"payment_source_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_source_payment_source_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"provider" text NOT NULL,
	"source_id" text NOT NULL,
	"card_type" text NOT NULL,
	"last_digits" text NOT NULL,
	"exp_month" integer,
	"exp_year" integer,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "processed_webhook_event" (
	"processed_webhook_event_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "processed_webhook_event_processed_webhook_event_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "favorite" (
	"favorite_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "favorite_favorite_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"video_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "playback" (
	"playback_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "playback_playback_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"customer_id" integer NOT NULL,
	"video_id" integer NOT NULL,
	"completed" boolean DEFAULT false NOT NULL,
	"completed_at" timestamp with time zone,
	"progress" integer DEFAULT 0 NOT NULL,
	"stars" smallint,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "playback_stars_check" CHECK ("playback"."stars" is null or "playback"."stars" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "program" (
	"program_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "program_program_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text,
	"image" text,
	"available" boolean DEFAULT true NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tag" (
	"tag_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tag_tag_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"type" text DEFAULT 'video' NOT NULL,
	"color" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "video" (
	"video_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "video_video_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text,
	"duration" integer NOT NULL,
	"url" text NOT NULL,
	"thumbnail" text,
	"file_id" integer,
	"instructor_id" integer,
	"video_type_id" integer,
	"class_type_id" integer,
	"class_category_id" integer,
	"release_date" timestamp with time zone DEFAULT now() NOT NULL,
	"available" boolean DEFAULT true NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('spanish'::regconfig, coalesce(name, '') || ' ' || coalesce(description, ''))) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "video_duration_check" CHECK ("video"."duration" >= 0)
);
--> statement-breakpoint
CREATE TABLE "video_program" (
	"program_id" integer NOT NULL,
	"video_id" integer NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "video_program_program_id_video_id_pk" PRIMARY KEY("program_id","video_id")
);
--> statement-breakpoint
CREATE TABLE "video_tag" (
	"video_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "video_tag_video_id_tag_id_pk" PRIMARY KEY("video_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "video_type" (
	"video_type_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "video_type_video_type_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"description" text,
	"order" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "password_reset" ADD CONSTRAINT "password_reset_uid_auth_user_uid_fk" FOREIGN KEY ("uid") REFERENCES "public"."auth_user"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_token" ADD CONSTRAINT "refresh_token_uid_auth_user_uid_fk" FOREIGN KEY ("uid") REFERENCES "public"."auth_user"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "address" ADD CONSTRAINT "address_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer" ADD CONSTRAINT "customer_file_id_file_file_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."file"("file_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer" ADD CONSTRAINT "customer_address_id_address_address_id_fk" FOREIGN KEY ("address_id") REFERENCES "public"."address"("address_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accepted_page" ADD CONSTRAINT "accepted_page_page_id_page_page_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."page"("page_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accepted_page" ADD CONSTRAINT "accepted_page_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "announcement" ADD CONSTRAINT "announcement_file_id_file_file_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."file"("file_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "form_field" ADD CONSTRAINT "form_field_form_id_form_form_id_fk" FOREIGN KEY ("form_id") REFERENCES "public"."form"("form_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_config" ADD CONSTRAINT "app_config_updated_by_customer_customer_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."customer"("customer_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_type" ADD CONSTRAINT "class_type_class_category_id_class_category_class_category_id_fk" FOREIGN KEY ("class_category_id") REFERENCES "public"."class_category"("class_category_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instructor" ADD CONSTRAINT "instructor_file_id_file_file_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."file"("file_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instructor" ADD CONSTRAINT "instructor_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "single_class" ADD CONSTRAINT "single_class_location_id_location_location_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."location"("location_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "single_class" ADD CONSTRAINT "single_class_class_type_id_class_type_class_type_id_fk" FOREIGN KEY ("class_type_id") REFERENCES "public"."class_type"("class_type_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "single_class" ADD CONSTRAINT "single_class_class_package_id_class_package_class_package_id_fk" FOREIGN KEY ("class_package_id") REFERENCES "public"."class_package"("class_package_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "single_class_instructor" ADD CONSTRAINT "single_class_instructor_single_class_id_single_class_single_class_id_fk" FOREIGN KEY ("single_class_id") REFERENCES "public"."single_class"("single_class_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "single_class_instructor" ADD CONSTRAINT "single_class_instructor_instructor_id_instructor_instructor_id_fk" FOREIGN KEY ("instructor_id") REFERENCES "public"."instructor"("instructor_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "single_class_tag" ADD CONSTRAINT "single_class_tag_single_class_id_single_class_single_class_id_fk" FOREIGN KEY ("single_class_id") REFERENCES "public"."single_class"("single_class_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "single_class_tag" ADD CONSTRAINT "single_class_tag_tag_id_tag_tag_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tag"("tag_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_reservation" ADD CONSTRAINT "class_reservation_single_class_id_single_class_single_class_id_fk" FOREIGN KEY ("single_class_id") REFERENCES "public"."single_class"("single_class_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_reservation" ADD CONSTRAINT "class_reservation_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_reservation" ADD CONSTRAINT "class_reservation_available_class_id_available_classes_available_class_id_fk" FOREIGN KEY ("available_class_id") REFERENCES "public"."available_classes"("available_class_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_reservation_penalty" ADD CONSTRAINT "class_reservation_penalty_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist" ADD CONSTRAINT "waitlist_single_class_id_single_class_single_class_id_fk" FOREIGN KEY ("single_class_id") REFERENCES "public"."single_class"("single_class_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist" ADD CONSTRAINT "waitlist_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_package" ADD CONSTRAINT "class_package_receipt_file_id_file_file_id_fk" FOREIGN KEY ("receipt_file_id") REFERENCES "public"."file"("file_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_package" ADD CONSTRAINT "class_package_downloadable_file_id_file_file_id_fk" FOREIGN KEY ("downloadable_file_id") REFERENCES "public"."file"("file_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_package_type" ADD CONSTRAINT "class_package_type_class_package_id_class_package_class_package_id_fk" FOREIGN KEY ("class_package_id") REFERENCES "public"."class_package"("class_package_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "class_package_type" ADD CONSTRAINT "class_package_type_class_type_id_class_type_class_type_id_fk" FOREIGN KEY ("class_type_id") REFERENCES "public"."class_type"("class_type_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "available_classes" ADD CONSTRAINT "available_classes_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "available_classes" ADD CONSTRAINT "available_classes_purchase_id_purchase_purchase_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchase"("purchase_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "available_classes" ADD CONSTRAINT "available_classes_class_type_id_class_type_class_type_id_fk" FOREIGN KEY ("class_type_id") REFERENCES "public"."class_type"("class_type_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_purchase_id_purchase_purchase_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchase"("purchase_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice" ADD CONSTRAINT "invoice_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_class_package_id_class_package_class_package_id_fk" FOREIGN KEY ("class_package_id") REFERENCES "public"."class_package"("class_package_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_payment_method_id_payment_method_payment_method_id_fk" FOREIGN KEY ("payment_method_id") REFERENCES "public"."payment_method"("payment_method_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_payment_source_id_payment_source_payment_source_id_fk" FOREIGN KEY ("payment_source_id") REFERENCES "public"."payment_source"("payment_source_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase" ADD CONSTRAINT "purchase_discount_id_discount_discount_id_fk" FOREIGN KEY ("discount_id") REFERENCES "public"."discount"("discount_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_class_package" ADD CONSTRAINT "discount_class_package_discount_id_discount_discount_id_fk" FOREIGN KEY ("discount_id") REFERENCES "public"."discount"("discount_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_class_package" ADD CONSTRAINT "discount_class_package_class_package_id_class_package_class_package_id_fk" FOREIGN KEY ("class_package_id") REFERENCES "public"."class_package"("class_package_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_use" ADD CONSTRAINT "discount_use_discount_id_discount_discount_id_fk" FOREIGN KEY ("discount_id") REFERENCES "public"."discount"("discount_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_use" ADD CONSTRAINT "discount_use_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "discount_use" ADD CONSTRAINT "discount_use_purchase_id_purchase_purchase_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchase"("purchase_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_source" ADD CONSTRAINT "payment_source_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorite" ADD CONSTRAINT "favorite_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorite" ADD CONSTRAINT "favorite_video_id_video_video_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."video"("video_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playback" ADD CONSTRAINT "playback_customer_id_customer_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customer"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playback" ADD CONSTRAINT "playback_video_id_video_video_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."video"("video_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video" ADD CONSTRAINT "video_file_id_file_file_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."file"("file_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video" ADD CONSTRAINT "video_instructor_id_instructor_instructor_id_fk" FOREIGN KEY ("instructor_id") REFERENCES "public"."instructor"("instructor_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video" ADD CONSTRAINT "video_video_type_id_video_type_video_type_id_fk" FOREIGN KEY ("video_type_id") REFERENCES "public"."video_type"("video_type_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video" ADD CONSTRAINT "video_class_type_id_class_type_class_type_id_fk" FOREIGN KEY ("class_type_id") REFERENCES "public"."class_type"("class_type_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video" ADD CONSTRAINT "video_class_category_id_class_category_class_category_id_fk" FOREIGN KEY ("class_category_id") REFERENCES "public"."class_category"("class_category_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_program" ADD CONSTRAINT "video_program_program_id_program_program_id_fk" FOREIGN KEY ("program_id") REFERENCES "public"."program"("program_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_program" ADD CONSTRAINT "video_program_video_id_video_video_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."video"("video_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_tag" ADD CONSTRAINT "video_tag_video_id_video_video_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."video"("video_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_tag" ADD CONSTRAINT "video_tag_tag_id_tag_tag_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tag"("tag_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "auth_user_email_key" ON "auth_user" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "password_reset_token_hash_key" ON "password_reset" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "password_reset_uid_idx" ON "password_reset" USING btree ("uid");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_token_token_hash_key" ON "refresh_token" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refresh_token_uid_idx" ON "refresh_token" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "address_customer_id_idx" ON "address" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_uid_key" ON "customer" USING btree ("uid");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_email_key" ON "customer" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_phone_key" ON "customer" USING btree ("phone");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_stripe_customer_id_key" ON "customer" USING btree ("stripe_customer_id");--> statement-breakpoint
CREATE INDEX "customer_name_idx" ON "customer" USING btree ("name","last_name");--> statement-breakpoint
CREATE UNIQUE INDEX "accepted_page_page_customer_key" ON "accepted_page" USING btree ("page_id","customer_id");--> statement-breakpoint
CREATE INDEX "accepted_page_customer_id_idx" ON "accepted_page" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "announcement_created_at_idx" ON "announcement" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_field_object_key" ON "custom_field" USING btree ("object","key");--> statement-breakpoint
CREATE INDEX "form_field_form_id_idx" ON "form_field" USING btree ("form_id","step","order");--> statement-breakpoint
CREATE UNIQUE INDEX "form_field_form_key" ON "form_field" USING btree ("form_id","key");--> statement-breakpoint
CREATE UNIQUE INDEX "page_slug_key" ON "page" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "outbox_message_status_idx" ON "outbox_message" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "class_category_handle_key" ON "class_category" USING btree ("handle");--> statement-breakpoint
CREATE INDEX "class_type_class_category_id_idx" ON "class_type" USING btree ("class_category_id");--> statement-breakpoint
CREATE INDEX "instructor_name_idx" ON "instructor" USING btree ("name","last_name");--> statement-breakpoint
CREATE INDEX "single_class_class_date_idx" ON "single_class" USING btree ("class_date");--> statement-breakpoint
CREATE INDEX "single_class_location_date_idx" ON "single_class" USING btree ("location_id","class_date");--> statement-breakpoint
CREATE INDEX "single_class_class_type_id_idx" ON "single_class" USING btree ("class_type_id");--> statement-breakpoint
CREATE INDEX "single_class_instructor_instructor_id_idx" ON "single_class_instructor" USING btree ("instructor_id");--> statement-breakpoint
CREATE INDEX "single_class_tag_tag_id_idx" ON "single_class_tag" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "class_reservation_single_class_id_idx" ON "class_reservation" USING btree ("single_class_id");--> statement-breakpoint
CREATE INDEX "class_reservation_customer_id_idx" ON "class_reservation" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "class_reservation_spot_key" ON "class_reservation" USING btree ("single_class_id","spot") WHERE "class_reservation"."spot" is not null and "class_reservation"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "class_reservation_penalty_customer_idx" ON "class_reservation_penalty" USING btree ("customer_id","end_date");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_class_customer_key" ON "waitlist" USING btree ("single_class_id","customer_id");--> statement-breakpoint
CREATE INDEX "waitlist_customer_id_idx" ON "waitlist" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "class_package_available_idx" ON "class_package" USING btree ("available","order");--> statement-breakpoint
CREATE UNIQUE INDEX "class_package_type_package_type_key" ON "class_package_type" USING btree ("class_package_id","class_type_id");--> statement-breakpoint
CREATE INDEX "available_classes_customer_idx" ON "available_classes" USING btree ("customer_id","expiration_date");--> statement-breakpoint
CREATE INDEX "available_classes_purchase_id_idx" ON "available_classes" USING btree ("purchase_id");--> statement-breakpoint
CREATE INDEX "invoice_purchase_id_idx" ON "invoice" USING btree ("purchase_id");--> statement-breakpoint
CREATE INDEX "invoice_customer_id_idx" ON "invoice" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_provider_invoice_id_key" ON "invoice" USING btree ("provider_invoice_id");--> statement-breakpoint
CREATE INDEX "purchase_customer_id_idx" ON "purchase" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "purchase_class_package_id_idx" ON "purchase" USING btree ("class_package_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_provider_payment_key" ON "purchase" USING btree ("provider","provider_payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_subscription_id_key" ON "purchase" USING btree ("subscription_id");--> statement-breakpoint
CREATE UNIQUE INDEX "discount_code_key" ON "discount" USING btree ("code");--> statement-breakpoint
CREATE INDEX "discount_use_discount_customer_idx" ON "discount_use" USING btree ("discount_id","customer_id");--> statement-breakpoint
CREATE INDEX "discount_use_purchase_id_idx" ON "discount_use" USING btree ("purchase_id");--> statement-breakpoint
CREATE INDEX "payment_source_customer_id_idx" ON "payment_source" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_source_provider_source_key" ON "payment_source" USING btree ("provider","source_id");--> statement-breakpoint
CREATE UNIQUE INDEX "processed_webhook_event_provider_event_key" ON "processed_webhook_event" USING btree ("provider","event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "favorite_customer_video_key" ON "favorite" USING btree ("customer_id","video_id");--> statement-breakpoint
CREATE UNIQUE INDEX "playback_customer_video_key" ON "playback" USING btree ("customer_id","video_id");--> statement-breakpoint
CREATE INDEX "playback_video_id_idx" ON "playback" USING btree ("video_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tag_type_name_key" ON "tag" USING btree ("type","name");--> statement-breakpoint
CREATE INDEX "video_search_idx" ON "video" USING gin ("search");--> statement-breakpoint
CREATE INDEX "video_instructor_id_idx" ON "video" USING btree ("instructor_id");--> statement-breakpoint
CREATE INDEX "video_video_type_id_idx" ON "video" USING btree ("video_type_id");--> statement-breakpoint
CREATE INDEX "video_release_date_idx" ON "video" USING btree ("release_date");--> statement-breakpoint
CREATE INDEX "video_program_video_id_idx" ON "video_program" USING btree ("video_id");--> statement-breakpoint
CREATE INDEX "video_tag_tag_id_idx" ON "video_tag" USING btree ("tag_id");