import { useRef } from 'react';
import { PayPalButtons, PayPalScriptProvider } from '@paypal/react-paypal-js';
import { trpc } from '../../api/trpc.ts';

interface PayPalCheckoutProps {
  clientId: string;
  classPackageId: number;
  discountCode: string | undefined;
  subscription: boolean;
  disabled: boolean;
  onPaid: (purchaseId: number) => void;
  onError: (error: unknown) => void;
}

/**
 * PayPal buttons for the package and the optional discount code: the server
 * creates the order (or names the plan of a subscription), PayPal approves it
 * in its window, and the server captures it.
 */
export function PayPalCheckout({ clientId, classPackageId, discountCode, subscription, disabled, onPaid, onError }: PayPalCheckoutProps) {
  const utils = trpc.useUtils();
  const purchaseId = useRef<number | null>(null);

  const prepare = async () => {
    const answer = await utils.client.checkout.paypal.mutate({ class_package_id: classPackageId, discountCode });
    purchaseId.current = answer.purchase_id;
    return answer;
  };

  const capture = async (input: { orderID?: string; subscriptionID?: string }) => {
    const answer = await utils.client.checkout.capture.mutate({ purchase_id: purchaseId.current ?? undefined, ...input });
    onPaid(answer.purchase_id);
  };

  return (
    <PayPalScriptProvider
      options={subscription ? { clientId, currency: 'MXN', intent: 'subscription', vault: true } : { clientId, currency: 'MXN', intent: 'capture' }}
    >
      <PayPalButtons
        disabled={disabled}
        forceReRender={[classPackageId, discountCode, subscription]}
        style={{ layout: 'vertical', label: subscription ? 'subscribe' : 'pay' }}
        {...(subscription
          ? {
              createSubscription: async (_data, actions) => {
                const answer = await prepare();
                return actions.subscription.create({ plan_id: answer.plan_id ?? '' });
              },
              onApprove: async (data) => capture({ subscriptionID: data.subscriptionID ?? undefined, orderID: data.orderID ?? undefined }),
            }
          : {
              createOrder: async () => (await prepare()).orderID ?? '',
              onApprove: async (data) => capture({ orderID: data.orderID }),
            })}
        onError={onError}
      />
    </PayPalScriptProvider>
  );
}
