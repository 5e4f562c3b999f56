"""A small JAX program: XLA preallocates 75% of GPU memory at start-up (the
default), then two jitted computations run.  Prints one checksum line."""
import jax
import jax.numpy as jnp

x = jnp.arange(1 << 20, dtype=jnp.float32) / (1 << 20)
f = jax.jit(lambda a: jnp.sin(a) * 2.0 + 1.0)
g = jax.jit(lambda a: jnp.sum(a * a))
y = f(x)
print('jax_small: %.6f' % float(g(y)))
