/** A form's message about the whole submission, not one field: announced as it appears. */
export function FormAlert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="font-medium text-danger">
      {message}
    </p>
  );
}
