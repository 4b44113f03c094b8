import { Slot } from "@radix-ui/react-slot";
import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "#src/lib/cn.ts";

const buttonVariants = cva(
  "inline-flex min-h-11 items-center justify-center gap-2 rounded-md text-[0.95rem] font-semibold whitespace-nowrap transition-colors disabled:cursor-not-allowed disabled:opacity-60 [&_svg]:size-4 [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        primary: "bg-ledger text-white shadow-sm hover:bg-ledger-dark",
        secondary: "border border-rule bg-card text-ink hover:border-ink-soft hover:bg-white",
        ghost: "text-ink hover:bg-ink/5",
        inverse: "bg-paper text-ink hover:bg-white",
      },
      size: {
        // Each size owns its padding: a shared px-5 would win over px-4 (later in the stylesheet).
        md: "px-5",
        // Narrower on phones, so the header fits a 320 px screen.
        sm: "min-h-10 px-3 text-sm sm:px-4",
        lg: "min-h-12 px-6 text-base",
      },
    },
    defaultVariants: { variant: "primary", size: "md" },
  },
);

type ButtonProps = ComponentProps<"button"> &
  VariantProps<typeof buttonVariants> & {
    /** Render the single child (a link, usually) with the button's look. */
    asChild?: boolean;
  };

export function Button({ className, variant, size, asChild = false, ...props }: ButtonProps) {
  const Comp = asChild ? Slot : "button";
  return <Comp className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}
