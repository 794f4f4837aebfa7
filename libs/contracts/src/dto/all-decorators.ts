/** Several property decorators as one, so a field's validation and documentation are declared once. */
export function all(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => decorators.forEach((decorate) => decorate(target, key));
}
