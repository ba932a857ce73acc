class ModelAccess(object):
    """Generic access to one document class: the persistence classes delegate to it."""

    def __init__(self, model):
        self.model = model

    def get(self, **filters):
        return self.model.objects(**filters).first()

    def update(self, instance, **kwargs):
        return instance.update(**kwargs)


class Persisted(object):
    """Base of the persistence classes: `impl` is the ModelAccess of their document."""

    impl = None

    @classmethod
    def update(cls, instance, **kwargs):
        return cls.impl.update(instance, **kwargs)
