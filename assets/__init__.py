"""The trained models, installed as the package ``companion.assets`` (pyproject's package-dir)
so that a checkout, an editable install and a wheel all find them with importlib.resources."""
