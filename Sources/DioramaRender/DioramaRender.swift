// DioramaRender
