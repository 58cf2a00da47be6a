import type { inferRouterOutputs } from '@trpc/server';
import type { ClassPackageOutput, PaymentSourceOutput, PurchaseOutput } from '@estudio/core';
import type { AppRouter } from '../api/trpc.ts';

export type ShopPackage = ClassPackageOutput;
export type ShopPurchase = PurchaseOutput;
export type SavedCard = PaymentSourceOutput;
export type ShopInvoice = inferRouterOutputs<AppRouter>['invoices']['list']['invoices'][number];
